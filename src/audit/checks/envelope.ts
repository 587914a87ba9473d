/** The request envelope and its exact errors, unknown methods, and notifications. */
import { isRequestMessage, type Exchange } from '../channel.js';
import {
  CAPABILITIES_KEY,
  describeExchange,
  errorOf,
  isPlainObject,
  VERSION_KEY,
  type AuditContext,
} from '../context.js';
import { MODERN_REVISION } from '../../protocol/revisions.js';

const UNSUPPORTED = '2099-01-01';
const NUMERIC_VERSION = 'numeric protocolVersion';

function statusProblem(ctx: AuditContext, status: number | undefined, expected: number): string | undefined {
  return ctx.channel.kind === 'http' && status !== expected ? `HTTP ${status} instead of ${expected}` : undefined;
}

async function checkInvalidParams(ctx: AuditContext): Promise<void> {
  const meta = ctx.meta();
  const { [CAPABILITIES_KEY]: _capabilities, ...withoutCapabilities } = meta;
  const cases: Array<[string, Record<string, unknown> | undefined]> = [
    ['no params', undefined],
    ['no _meta', {}],
    ['empty _meta', { _meta: {} }],
    [NUMERIC_VERSION, { _meta: { ...meta, [VERSION_KEY]: 20260728 } }],
    ['no clientCapabilities', { _meta: withoutCapabilities }],
  ];
  const problems: string[] = [];
  for (const [label, params] of cases) {
    const message = { jsonrpc: '2.0', id: ctx.nextId(), method: 'tools/list', ...(params !== undefined && { params }) };
    const exchange = await ctx.send(message);
    const error = errorOf(exchange);
    // Over HTTP the MCP-Protocol-Version header names 2026-07-28 while the body's version is a number: the header
    // disagrees with the body, and -32020 is as correct a refusal as -32602.
    const headerMismatch = ctx.channel.kind === 'http' && label === NUMERIC_VERSION && error?.code === -32020;
    if (error?.code !== -32602 && !headerMismatch) problems.push(`${label}: ${describeExchange(exchange)}`);
    else {
      const status = statusProblem(ctx, exchange.status, 400);
      if (status !== undefined) problems.push(`${label}: ${status}`);
    }
  }
  ctx.record(
    'envelope.invalid_params',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length === 0 ? `${cases.length} malformed envelopes, each -32602` : problems.join('; '),
  );
}

async function checkUnsupportedVersion(ctx: AuditContext): Promise<void> {
  const exchange = await ctx.call('tools/list', { _meta: { ...ctx.meta(), [VERSION_KEY]: UNSUPPORTED } });
  const error = errorOf(exchange);
  const problems: string[] = [];
  if (error?.code !== -32022) problems.push(`answered ${describeExchange(exchange)}, expected -32022`);
  else {
    const data = error.data;
    const keys = isPlainObject(data) ? Object.keys(data).sort() : [];
    if (!isPlainObject(data) || keys.join(',') !== 'requested,supported') {
      problems.push(`data is ${JSON.stringify(data ?? null)}, expected exactly {supported, requested}`);
    } else {
      const supported = data['supported'];
      if (!Array.isArray(supported) || !supported.includes(MODERN_REVISION)) {
        problems.push(`data.supported is ${JSON.stringify(supported)}, without ${MODERN_REVISION}`);
      }
      if (data['requested'] !== UNSUPPORTED) {
        problems.push(`data.requested is ${JSON.stringify(data['requested'])}, expected "${UNSUPPORTED}"`);
      }
    }
    const status = statusProblem(ctx, exchange.status, 400);
    if (status !== undefined) problems.push(status);
  }
  ctx.record(
    'envelope.unsupported_version',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length === 0 ? `-32022 with ${JSON.stringify(error?.data)}` : problems.join('; '),
  );
}

async function checkUnknownMethod(ctx: AuditContext): Promise<void> {
  const exchange = await ctx.call('audit/no-such-method');
  const error = errorOf(exchange);
  const status = error?.code === -32601 ? statusProblem(ctx, exchange.status, 404) : undefined;
  if (error?.code !== -32601) ctx.record('methods.unknown', 'fail', `answered ${describeExchange(exchange)}`);
  else if (status !== undefined) ctx.record('methods.unknown', 'fail', status);
  else ctx.record('methods.unknown', 'pass', '-32601');
}

/**
 * Over HTTP a notification is either accepted (202, no body) or refused with an HTTP error status
 * (4xx), whose body is empty or a JSON-RPC error without an id. Anything else answers it.
 */
export function notificationProblem(exchange: Exchange): string | undefined {
  if (exchange.failure !== undefined) return exchange.failure;
  const status = exchange.status ?? 0;
  const text = exchange.text ?? '';
  if (status === 202) return text === '' ? undefined : `HTTP 202 with ${text.length} body bytes`;
  if (status >= 400 && status < 500) {
    if (text.trim() === '') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const idless = isPlainObject(body) && isPlainObject(body['error']) && (!('id' in body) || body['id'] === null);
    return idless ? undefined : `HTTP ${status} with a body that is not a JSON-RPC error without an id`;
  }
  return `HTTP ${status}${text.trim() === '' ? '' : ` with ${text.length} body bytes`}, expected 202 or a 4xx refusal`;
}

async function checkNotifications(ctx: AuditContext): Promise<void> {
  const notifications = [
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999_999, _meta: ctx.meta() } },
    { jsonrpc: '2.0', method: 'notifications/audit-unknown', params: { _meta: ctx.meta() } },
  ];
  if (ctx.channel.kind === 'http') {
    const problems: string[] = [];
    const outcomes: string[] = [];
    for (const notification of notifications) {
      const exchange = await ctx.send(notification);
      const problem = notificationProblem(exchange);
      if (problem !== undefined) problems.push(`${notification.method}: ${problem}`);
      else outcomes.push(exchange.status === 202 ? '202' : `refused with HTTP ${exchange.status}`);
    }
    ctx.record(
      'notifications.unanswered',
      problems.length === 0 ? 'pass' : 'fail',
      problems.length > 0
        ? problems.join('; ')
        : outcomes.every((outcome) => outcome === '202')
          ? '202 Accepted, empty body'
          : `no JSON-RPC response (${[...new Set(outcomes)].join(', ')})`,
    );
    return;
  }
  const before = ctx.channel.stray().at(-1)?.seq ?? 0;
  for (const notification of notifications) await ctx.send(notification);
  const sentinel = await ctx.call('server/discover');
  await ctx.channel.settle(200);
  const answers = ctx.channel
    .stray()
    .filter((entry) => entry.seq > before && !isRequestMessage(entry.message) && !('method' in entry.message));
  if (answers.length > 0) {
    ctx.record(
      'notifications.unanswered',
      'fail',
      `answered a notification: ${JSON.stringify(answers[0]?.message).slice(0, 160)}`,
    );
  } else if (sentinel.failure !== undefined) {
    ctx.record('notifications.unanswered', 'fail', `after the notifications: ${sentinel.failure}`);
  } else {
    ctx.record('notifications.unanswered', 'pass', 'no response to either notification');
  }
}

export async function checkEnvelope(ctx: AuditContext): Promise<void> {
  await checkInvalidParams(ctx);
  await checkUnsupportedVersion(ctx);
  await checkUnknownMethod(ctx);
  await checkNotifications(ctx);
}
