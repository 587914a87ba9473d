/**
 * Which protocol era the server speaks, asked first: `server/discover` answered with a result is a 2026-07-28
 * server (broken or not: the other rules say how). A server that refuses `server/discover` is offered the
 * 2025-11-25 handshake; if it answers `initialize` with a result, it speaks only that older revision. Then the
 * report says so once (`protocol.revision`) instead of failing every 2026-07-28 rule for the same reason, and only
 * what still applies is checked within its session: `tools/list`, an unknown method, stdout hygiene.
 */
import { LEGACY_REVISION, MODERN_REVISION } from '../../protocol/revisions.js';
import { describeExchange, errorOf, isPlainObject, resultOf, type AuditContext } from '../context.js';
import { RULES } from '../rules.js';

/** The rules still judged against a server that speaks only 2025-11-25. */
const LEGACY_RULES = new Set(['protocol.revision', 'tools_list.result', 'methods.unknown', 'transport.stdout_clean']);

export type EraProbe = { era: typeof MODERN_REVISION } | { era: 'legacy'; version: string } | { era: 'unknown' };

export async function probeEra(ctx: AuditContext): Promise<EraProbe> {
  const discover = await ctx.call('server/discover');
  if (resultOf(discover) !== undefined) {
    ctx.record('protocol.revision', 'pass', `${MODERN_REVISION} (server/discover answers)`);
    return { era: MODERN_REVISION };
  }
  const handshake = await ctx.send({
    jsonrpc: '2.0',
    id: ctx.nextId(),
    method: 'initialize',
    params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: ctx.clientInfo },
  });
  const version = resultOf(handshake)?.['protocolVersion'];
  if (typeof version === 'string' && version !== MODERN_REVISION) return { era: 'legacy', version };
  ctx.record(
    'protocol.revision',
    'fail',
    `server/discover answered ${describeExchange(discover)}, and the ${LEGACY_REVISION} handshake ${describeExchange(handshake)}`,
  );
  return { era: 'unknown' };
}

/** The audit of a server that speaks only an older revision: one finding, then what still applies. */
export async function checkLegacyOnly(ctx: AuditContext, version: string): Promise<void> {
  ctx.record('protocol.revision', 'fail', `speaks only ${version}: the ${MODERN_REVISION} checks do not apply`);
  const session = ctx.sessionIds.at(-1);
  const headers = session === undefined ? undefined : { 'mcp-session-id': session, 'mcp-protocol-version': version };
  const send = (method: string, id: boolean) =>
    ctx.send({ jsonrpc: '2.0', ...(id && { id: ctx.nextId() }), method, params: {} }, headers);
  await send('notifications/initialized', false);

  const list = await send('tools/list', true);
  const tools = resultOf(list)?.['tools'];
  if (!Array.isArray(tools)) ctx.record('tools_list.result', 'fail', `tools/list answered ${describeExchange(list)}`);
  else {
    const unnamed = tools.filter((tool: unknown) => !isPlainObject(tool) || typeof tool['name'] !== 'string');
    const names = tools.filter(isPlainObject).map((tool) => String(tool['name']));
    ctx.observed.tools = names;
    ctx.record(
      'tools_list.result',
      unnamed.length === 0 ? 'pass' : 'fail',
      unnamed.length === 0
        ? `${names.length} tool(s) in the ${version} session`
        : `${unnamed.length} tool(s) without a name`,
    );
  }
  const unknown = await send('audit/no-such-method', true);
  const code = errorOf(unknown)?.code;
  ctx.record(
    'methods.unknown',
    code === -32601 ? 'pass' : 'fail',
    code === -32601 ? '-32601' : describeExchange(unknown),
  );
  if (ctx.channel.kind === 'http') ctx.record('transport.stdout_clean', 'not_applicable', 'HTTP');
  else {
    const noise = ctx.channel.noise();
    ctx.record(
      'transport.stdout_clean',
      noise.length === 0 ? 'pass' : 'fail',
      noise.length === 0 ? 'only JSON-RPC lines' : `non-JSON-RPC output on stdout: ${JSON.stringify(noise[0])}`,
    );
  }
  for (const rule of RULES) {
    if (!LEGACY_RULES.has(rule.id)) ctx.record(rule.id, 'not_applicable', `the server speaks only ${version}`);
  }
}
