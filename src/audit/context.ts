/** What every check shares: the channel with an id counter, the rule ledger, and the observations. */
import type { Exchange, JsonRpcMessage, ProbeChannel } from './channel.js';
import { RULES } from './rules.js';
import type { AuditObservations, RuleResult, RuleStatus } from './types.js';
import { MODERN_REVISION } from '../protocol/revisions.js';

export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export interface AuditContext {
  channel: ProbeChannel;
  clientInfo: { name: string; version: string };
  observed: AuditObservations;
  /** A fresh JSON-RPC id. */
  nextId(): number;
  /** The 2026-07-28 envelope with the given capabilities. */
  meta(capabilities?: Record<string, unknown>): Record<string, unknown>;
  /** A request with a fresh id and `_meta`; `params` may override `_meta`. */
  call(method: string, params?: Record<string, unknown>, capabilities?: Record<string, unknown>): Promise<Exchange>;
  send(message: JsonRpcMessage, headers?: Record<string, string>): Promise<Exchange>;
  /** Records a rule's outcome: a failure is never overwritten by a pass, nor a pass by not applicable. */
  record(id: string, status: RuleStatus, detail: string): void;
  /** Every result seen, for rules checked across all of them. */
  results: Array<{ method: string; result: Record<string, unknown> }>;
  /** The tool descriptors of the first tools/list. */
  listedTools: Array<Record<string, unknown>>;
  /** `Mcp-Session-Id` values the server handed out (HTTP). */
  sessionIds: string[];
  ledger(): RuleResult[];
}

/** fail outranks pass, which outranks not applicable. */
const RANK: Record<RuleStatus, number> = { not_applicable: 0, pass: 1, fail: 2 };

export function createAuditContext(channel: ProbeChannel, clientInfo: { name: string; version: string }): AuditContext {
  let id = 0;
  const outcomes = new Map<string, { status: RuleStatus; detail: string }>();
  const context: AuditContext = {
    channel,
    clientInfo,
    observed: { tools: [], rounds: [], completed: false },
    results: [],
    listedTools: [],
    sessionIds: [],
    nextId: () => ++id,
    meta: (capabilities = {}) => ({
      [VERSION_KEY]: MODERN_REVISION,
      [CAPABILITIES_KEY]: capabilities,
      [CLIENT_INFO_KEY]: clientInfo,
    }),
    async send(message, headers) {
      const exchange = await channel.send(message, headers);
      const session = exchange.headers?.['mcp-session-id'];
      if (session !== undefined) context.sessionIds.push(session);
      const result = exchange.message?.['result'];
      if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
        context.results.push({ method: String(message['method']), result: result as Record<string, unknown> });
      }
      return exchange;
    },
    call(method, params = {}, capabilities = {}) {
      return context.send({
        jsonrpc: '2.0',
        id: context.nextId(),
        method,
        params: { _meta: context.meta(capabilities), ...params },
      });
    },
    record(ruleId, status, detail) {
      const previous = outcomes.get(ruleId);
      if (previous === undefined || RANK[status] > RANK[previous.status]) outcomes.set(ruleId, { status, detail });
      else if (status === 'fail' && previous.status === 'fail') previous.detail = `${previous.detail}; ${detail}`;
    },
    ledger: () =>
      RULES.map((rule) => {
        const outcome = outcomes.get(rule.id) ?? { status: 'not_applicable' as const, detail: 'not checked' };
        return { ...rule, ...outcome };
      }),
  };
  return context;
}

/** Describes an exchange that did not produce a result: an error code, a failure, or nothing. */
export function describeExchange(exchange: Exchange): string {
  if (exchange.failure !== undefined) return exchange.failure;
  const error = exchange.message?.['error'] as { code?: unknown; message?: unknown } | undefined;
  const status = exchange.status === undefined ? '' : ` (HTTP ${exchange.status})`;
  if (error !== undefined) return `error ${String(error.code)} ${JSON.stringify(error.message ?? '')}${status}`;
  const result = exchange.message?.['result'] as Record<string, unknown> | undefined;
  if (result !== undefined) return `a result (resultType ${JSON.stringify(result['resultType'] ?? null)})${status}`;
  return `no JSON-RPC response${status}`;
}

export function errorOf(exchange: Exchange): { code: unknown; data: unknown } | undefined {
  const error = exchange.message?.['error'];
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  return { code: record['code'], data: record['data'] };
}

export function resultOf(exchange: Exchange): Record<string, unknown> | undefined {
  const result = exchange.message?.['result'];
  return typeof result === 'object' && result !== null && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
