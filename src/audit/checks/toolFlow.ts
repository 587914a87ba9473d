/**
 * A named tool's MRTR behaviour, driven like a host would: the capability gate (-32021), then the
 * flow with fresh ids, answers from the scripted host, and the echoed requestState, checking every
 * input_required result and embedded request on the way.
 */
import { describeExchange, errorOf, isPlainObject, resultOf, type AuditContext } from '../context.js';
import type { Exchange } from '../channel.js';
import type { ScriptedHost } from '../scriptedHost.js';
import { isReadableState } from '../stateToken.js';
import { ToolArgumentsRejectedError } from '../toolArgumentsRejectedError.js';
import { inspectInputRequired } from './inputRequests.js';

export const MAX_AUDIT_ROUNDS = 8;

/** An error's code and message on one short line (the message comes from the server). */
function errorText(exchange: Exchange): string {
  const message = (exchange.message?.['error'] as { message?: unknown } | undefined)?.message;
  const text = typeof message === 'string' ? message.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return text === '' ? '-32602' : `-32602 ${JSON.stringify(text)}`;
}

export interface ToolUnderAudit {
  name: string;
  arguments: Record<string, unknown>;
}

/** The first input_required round, kept to replay it in the state checks. */
export interface FirstRound {
  capabilities: Record<string, unknown>;
  requests: Record<string, { method: string; params: unknown }>;
  answers: Record<string, unknown>;
  state?: string;
}

/** The -32021 gate: a call declaring nothing. Returns the capabilities the flow should declare. */
async function checkCapabilityGate(ctx: AuditContext, tool: ToolUnderAudit): Promise<Record<string, unknown>> {
  const exchange = await ctx.call('tools/call', { name: tool.name, arguments: tool.arguments }, {});
  const error = errorOf(exchange);
  const result = resultOf(exchange);
  const needed = isPlainObject(error?.data) ? error.data['requiredCapabilities'] : undefined;
  if (error?.code === -32021) {
    if (!isPlainObject(needed) || Object.keys(needed).length === 0) {
      ctx.record(
        'envelope.missing_capability',
        'fail',
        `-32021 without data.requiredCapabilities: ${JSON.stringify(error.data ?? null)}`,
      );
    } else if (ctx.channel.kind === 'http' && exchange.status !== 400) {
      ctx.record('envelope.missing_capability', 'fail', `-32021 with HTTP ${exchange.status} instead of 400`);
    } else {
      ctx.record('envelope.missing_capability', 'pass', `-32021 with requiredCapabilities ${JSON.stringify(needed)}`);
    }
    return { sampling: {}, ...(isPlainObject(needed) ? needed : {}) };
  }
  if (result?.['resultType'] === 'input_required') {
    inspectInputRequired(ctx, result, {}, 0, false);
    ctx.record(
      'envelope.missing_capability',
      'fail',
      'declared no capability and got input_required instead of -32021',
    );
  } else if (result !== undefined) {
    ctx.record('envelope.missing_capability', 'not_applicable', 'the tool answers without any client capability');
  } else {
    ctx.record('envelope.missing_capability', 'fail', `declared no capability and got ${describeExchange(exchange)}`);
  }
  return { sampling: {} };
}

async function driveFlow(ctx: AuditContext, tool: ToolUnderAudit, host: ScriptedHost): Promise<FirstRound | undefined> {
  const descriptor = ctx.listedTools.find((entry) => entry['name'] === tool.name);
  if (descriptor === undefined) {
    ctx.record('tool.listed', 'fail', `${tool.name} is not among ${JSON.stringify(ctx.observed.tools)}`);
    return undefined;
  }
  ctx.record('tool.listed', 'pass', tool.name);
  ctx.observed.tool = {
    name: tool.name,
    arguments: tool.arguments,
    ...(typeof descriptor['description'] === 'string' && { description: descriptor['description'] }),
    ...(descriptor['inputSchema'] !== undefined && { inputSchema: descriptor['inputSchema'] }),
  };
  const capabilities = await checkCapabilityGate(ctx, tool);
  ctx.observed.declaredCapabilities = capabilities;

  let first: FirstRound | undefined;
  let answers: Record<string, unknown> | undefined;
  let state: string | undefined;
  const ids: number[] = [];
  for (let round = 1; round <= MAX_AUDIT_ROUNDS; round++) {
    const id = ctx.nextId();
    ids.push(id);
    const params = {
      _meta: ctx.meta(capabilities),
      name: tool.name,
      arguments: tool.arguments,
      ...(answers !== undefined && { inputResponses: answers }),
      ...(state !== undefined && { requestState: state }),
    };
    const exchange = await ctx.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const result = resultOf(exchange);
    if (round === 1 && errorOf(exchange)?.code === -32602) {
      // The tool refuses the audited arguments themselves: bad input to the audit, not a broken rule.
      throw new ToolArgumentsRejectedError(tool.name, tool.arguments, errorText(exchange));
    }
    if (result === undefined) {
      ctx.record('mrtr.fresh_ids_accepted', 'fail', `request ${round} (id ${id}) got ${describeExchange(exchange)}`);
      return first;
    }
    if (result['resultType'] === 'complete') {
      ctx.observed.completed = true;
      ctx.record('mrtr.fresh_ids_accepted', 'pass', `complete after ${round} request(s), ids ${ids.join(', ')}`);
      return first;
    }
    if (result['resultType'] !== 'input_required') {
      ctx.record(
        'mrtr.fresh_ids_accepted',
        'fail',
        `request ${round} got resultType ${JSON.stringify(result['resultType'] ?? null)}`,
      );
      return first;
    }
    const requests = inspectInputRequired(ctx, result, capabilities, round, true);
    state = typeof result['requestState'] === 'string' ? result['requestState'] : undefined;
    if (state !== undefined) {
      const readable = isReadableState(state) || (ctx.observed.requestState?.readable ?? false);
      const bytes = Math.max(Buffer.byteLength(state, 'utf8'), ctx.observed.requestState?.bytes ?? 0);
      ctx.observed.requestState = { bytes, readable };
    }
    answers = {};
    for (const [key, request] of Object.entries(requests)) {
      const answer = await host.answer(key, request);
      if (answer === undefined) {
        ctx.record(
          'mrtr.fresh_ids_accepted',
          'fail',
          `round ${round}: the scripted host cannot answer ${request.method}`,
        );
        return first;
      }
      answers[key] = answer;
    }
    first ??= { capabilities, requests, answers, ...(state !== undefined && { state }) };
  }
  ctx.record(
    'mrtr.fresh_ids_accepted',
    'fail',
    `still input_required after ${MAX_AUDIT_ROUNDS} rounds: the loop is not bounded`,
  );
  return first;
}

const PER_ROUND_RULES = [
  'mrtr.input_required_shape',
  'mrtr.declared_capabilities_only',
  'mrtr.sampling_params',
  'mrtr.include_context',
] as const;

export async function checkToolFlow(
  ctx: AuditContext,
  tool: ToolUnderAudit,
  host: ScriptedHost,
): Promise<FirstRound | undefined> {
  const first = await driveFlow(ctx, tool, host);
  const seen = ctx.observed.rounds.length;
  for (const rule of PER_ROUND_RULES) {
    if (first === undefined) ctx.record(rule, 'not_applicable', 'the tool never answered input_required');
    else ctx.record(rule, 'pass', `${seen} embedded request(s) checked`);
  }
  return first;
}
