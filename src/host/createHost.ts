/**
 * The host runtime (`mcp-model-input/host`): the client's trust boundary for model input that
 * servers ask for.
 *
 * On the official SDK client: `connect` negotiates the revision (probes `server/discover`, falls
 * back to `initialize` for a 2025-11-25 server); discovery and `tools/list` are cached for their
 * `ttlMs` by the SDK's response cache. `callTool` drives the MRTR rounds itself — the SDK's manual
 * mode (`allowInputRequired`) hands each `input_required` result back — so that every round goes
 * through the policies in fulfilRound.ts before anything is sent, the round cap keeps the last
 * result, and the retry carries the caller's arguments, the answers, and `requestState` echoed
 * byte for byte on a fresh request id. A 2025-11-25 server's live requests go through the same
 * policies (one request per round).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  isInputRequiredResult,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type CallToolResult,
  type ClientCapabilities,
  type Root,
  type Tool,
} from '@modelcontextprotocol/client';

import { ModelInputError } from '../errors.js';
import { VERSION } from '../version.js';
import { silentAuditLog, type AuditLog } from './auditLog.js';
import { hostCapabilities } from './client.js';
import type { TerminalElicitor } from './elicitTerminal.js';
import { auditRefusedRound, fulfilRound, rawInputRequests, type RoundPolicies } from './fulfilRound.js';
import { HostError, isHostError } from './hostError.js';
import { createLegacyHandlers, type LegacyCallSession } from './legacyHandlers.js';
import { createCallBudget, DEFAULT_BUDGET_LIMITS, type BudgetLimits } from './policies/budgets.js';
import { DEFAULT_REQUEST_LIMITS, resolveLimits, type RequestLimits } from './policies/limits.js';
import type { HostModelEntry } from './policies/modelPolicy.js';
import { sharedRateLimiter, type RateLimiter } from './policies/rateLimit.js';
import { linearSchemaValidator } from './linearSchemas.js';
import { createOutputCheck, withoutOutputSchema } from './toolOutput.js';
import { terminalSafe } from '../protocol/sanitize.js';
import { clientTransport, targetKey, type HostTarget } from './target.js';
import { createTaskChannel, taskOfResult, TASKS_EXTENSION } from './taskChannel.js';
import { driveTask } from './taskPolling.js';
import type { TraceSink } from './trace.js';
import type { Approver, CallPosition, ConnectedServer } from './types.js';
import { MODERN_REVISION } from '../protocol/revisions.js';

export const DEFAULT_HOST_MAX_ROUNDS = 5;

export { targetKey, type HostTarget } from './target.js';

export interface HostOptions {
  /** The client name the server sees. */
  name?: string;
  /**
   * Declare the tasks extension (`io.modelcontextprotocol/tasks`, default true): a server may then answer a call
   * with a task, which the host polls at the server's interval, answering its input through the same policies.
   */
  tasks?: boolean;
  /**
   * Models for `sampling/createMessage`, chosen per request by its preferences; declares `sampling` when
   * non-empty, and `sampling.tools` when one of them can use tools (`usesTools`): requests that offer
   * tools (or carry a tool loop) then go only to those.
   */
  models?: readonly HostModelEntry[];
  /** Answers form-mode `elicitation/create` (e.g. at the terminal); declares `elicitation` when set. */
  elicit?: TerminalElicitor;
  /** Answers `roots/list`; declares `roots` when set. */
  roots?: readonly Root[];
  /** Reviews every round's sampling requests. Default: deny (nothing is approved without an approver). */
  approver?: Approver;
  /** Overrides of `DEFAULT_REQUEST_LIMITS`: numbers > 0 (`Infinity`: off); `undefined` keeps the default. */
  limits?: Partial<RequestLimits>;
  /** Overrides of `DEFAULT_BUDGET_LIMITS`, checked the same way. */
  budgets?: Partial<BudgetLimits>;
  /** `input_required` rounds per call, a whole number >= 1; default 5. */
  maxRounds?: number;
  /** Default: one limiter shared by every host in the process. */
  rateLimiter?: RateLimiter;
  audit?: AuditLog;
  /** The principal the host acts as on the server, when it knows one (rate limits per principal). */
  principal?: string;
  /** `auto` (default): probe `server/discover`, fall back to `initialize`. `pin`: 2026-07-28 only. */
  negotiation?: 'auto' | 'pin';
  /** Per-leg request timeout; default the SDK's (60 s). */
  requestTimeoutMs?: number;
  /** One line per message (ids, methods, keys, sizes; never prompt or response text). */
  trace?: TraceSink;
  /** HTTP: the largest response body the host reads (default 32 MiB); a larger one is a protocol error. */
  maxResponseBodyBytes?: number;
  /**
   * What a declined sampling round (`approval_denied`) does to the call. `stop` (default): the call
   * stops with the `approval_denied` error. `fallback`: on 2026-07-28 the call is made again from
   * the start without declaring sampling, so that a server with a model of its own (`host,builtin`)
   * serves it (a server without one answers -32021, a `protocol_error`); on 2025-11-25 the server
   * already got the refusal (-1), and its result is returned.
   */
  onDeny?: OnDeny;
}

export type OnDeny = 'stop' | 'fallback';

/** How a call went on after its sampling round was declined (`onDeny: 'fallback'`). */
export interface DeclinedSampling {
  /** The `approval_denied` message. */
  reason: string;
  /** `retried_without_sampling` (2026-07-28) or `server_continued` (2025-11-25: the server got -1). */
  how: 'retried_without_sampling' | 'server_continued';
}

export interface HostCallOptions {
  signal?: AbortSignal;
  /** Called after each round is answered, before the retry (progress for long calls). */
  onRound?: (round: number, keys: string[]) => void;
  /** Called with each state of a task the server made of the call (status and its message). */
  onTask?: (task: { status: string; statusMessage?: string }) => void;
  /** Called with each progress notification of the call (the request then carries a `progressToken`). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface HostCallResult {
  result: CallToolResult;
  /** How many `input_required` rounds the call took (in the attempt that completed). */
  rounds: number;
  /**
   * 1 when the call was started again after a leg was lost in transit (HTTP only: the connection
   * failed, or a balancer answered 502/503/504), else 0. See `lostInTransit`.
   */
  restarts: number;
  /** Model spend across the call's rounds. */
  usage: { tokens: number; bytes: number };
  /** Set when a sampling round was declined and the call went on (`onDeny: 'fallback'`). */
  declined?: DeclinedSampling;
}

export interface Discovery {
  server: ConnectedServer;
  era: 'modern' | 'legacy';
  protocolVersion?: string;
  capabilities: Record<string, unknown>;
  instructions?: string;
  tools: Tool[];
}

export interface HostConnection {
  readonly server: ConnectedServer;
  readonly era: 'modern' | 'legacy';
  discover(): Promise<Discovery>;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args?: Record<string, unknown>, options?: HostCallOptions): Promise<HostCallResult>;
  close(): Promise<void>;
}

export interface Host {
  /** The capabilities this host declares (and therefore the only ones it fulfils). */
  readonly capabilities: ClientCapabilities;
  connect(target: HostTarget): Promise<HostConnection>;
}

const DENY_ALL: Approver = {
  review: () => Promise.resolve({ kind: 'deny', reason: 'no approver is configured' }),
};

/** A word as a POSIX shell would need it: as is when plain, else single-quoted. */
/** Characters of a peer's (or the SDK's) error message kept in a `protocol_error`. */
const MAX_PEER_MESSAGE_CHARS = 500;

/**
 * A JSON-RPC error, SDK error or transport failure, as the host's typed protocol error. `closedBecause`:
 * why the transport closed, when it said (see `transportFailure`), named instead of "Connection closed".
 */
export function asProtocolError(error: unknown, tool: string, closedBecause?: string): HostError {
  if (isHostError(error)) return error;
  const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
  // The message may be the server's own (a JSON-RPC error): no terminal controls, bounded.
  const raw =
    closed && closedBecause !== undefined ? closedBecause : error instanceof Error ? error.message : String(error);
  const message = terminalSafe(raw, MAX_PEER_MESSAGE_CHARS);
  const rpcCode = error instanceof ProtocolError ? error.code : undefined;
  return new HostError('protocol_error', `${tool}: ${message}`, rpcCode === undefined ? {} : { rpcCode }, {
    cause: error,
  });
}

/**
 * A transport error worth naming when the connection then closes: the SDK's stdio transport drops a
 * server whose message passes its read buffer (`ReadBuffer exceeded maximum size of N bytes`) and the
 * calls in flight end as a bare "Connection closed".
 */
export function transportFailure(error: Error): string | undefined {
  const oversize = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message);
  if (oversize === null) return undefined;
  const limit = Number(oversize[1]);
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
  return `the server sent a message over ${size}, the most the host reads from a stdio server; the connection was closed`;
}

/** HTTP statuses a balancer answers for an instance that died or is draining: the leg never completed. */
const LOST_STATUSES = new Set([502, 503, 504]);
const LOST_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * Why a leg was lost in transit (the connection failed, or a balancer answered 502/503/504), or
 * undefined when the server answered (a JSON-RPC error, 4xx, a bad body): that answer stands.
 */
export function lostInTransit(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause instanceof SdkHttpError && LOST_STATUSES.has(cause.status)) return `HTTP ${cause.status}`;
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && LOST_SOCKET_CODES.has(code)) return code;
    if (cause instanceof TypeError && cause.message === 'fetch failed') {
      const inner = (cause.cause as { code?: unknown } | undefined)?.code;
      return typeof inner === 'string' ? inner : 'fetch failed';
    }
    cause = cause.cause;
  }
  return undefined;
}

/** What one call has used, over its restart and its fallback retry: the caps count these. */
interface CallCounters {
  /** `input_required` rounds answered. */
  rounds: number;
  /** Starts made again after a leg was lost in transit (at most one). */
  restarts: number;
}

/** A leg lost in transit, carried up to `callModern`, which starts the call again once. */
class LostInTransit extends Error {
  override name = 'LostInTransit';
  constructor(
    /** `round N`, or `tools/list` (the definition fetched before round 1). */
    readonly leg: string,
    readonly reason: string,
    override readonly cause: unknown,
  ) {
    super(`${leg} lost in transit (${reason})`);
  }
}

export function createHost(options: HostOptions = {}): Host {
  const models = options.models ?? [];
  const capabilities: ClientCapabilities = {
    ...hostCapabilities({
      model: models[0]?.model,
      // Tool-loop requests go to the models that use tools (fulfilRound.ts): one is enough to declare it.
      usesTools: models.some((entry) => entry.model.usesTools === true),
      elicit: options.elicit,
      roots: options.roots,
    }),
    ...(options.tasks !== false && { extensions: { [TASKS_EXTENSION]: {} } }),
  };
  const limits: RequestLimits = resolveLimits('host limits', DEFAULT_REQUEST_LIMITS, options.limits);
  const budgets: BudgetLimits = resolveLimits('host budgets', DEFAULT_BUDGET_LIMITS, options.budgets);
  const maxRounds = options.maxRounds ?? DEFAULT_HOST_MAX_ROUNDS;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 1) {
    // NaN or Infinity would leave a loop bomb uncapped.
    throw new ModelInputError('config_invalid', `host maxRounds must be a whole number >= 1, got ${String(maxRounds)}`);
  }
  const bodyCap = options.maxResponseBodyBytes;
  if (bodyCap !== undefined && (!Number.isSafeInteger(bodyCap) || bodyCap < 1024)) {
    throw new ModelInputError(
      'config_invalid',
      `host maxResponseBodyBytes must be a whole number >= 1024, got ${String(bodyCap)}`,
    );
  }
  const rateLimiter = options.rateLimiter ?? sharedRateLimiter();
  const audit = options.audit ?? silentAuditLog;
  const approver = options.approver ?? DENY_ALL;

  const onDeny = options.onDeny ?? 'stop';
  if (onDeny !== 'stop' && onDeny !== 'fallback') {
    throw new ModelInputError('config_invalid', `host onDeny must be 'stop' or 'fallback', got ${String(onDeny)}`);
  }

  function policiesFor(signal: AbortSignal | undefined, declared: ClientCapabilities = capabilities): RoundPolicies {
    return {
      declared,
      limits,
      budget: createCallBudget(budgets),
      approver,
      rateLimiter,
      audit,
      models,
      ...(options.elicit !== undefined && { elicit: options.elicit }),
      ...(options.roots !== undefined && { roots: options.roots }),
      ...(signal !== undefined && { signal }),
    };
  }

  async function connect(target: HostTarget): Promise<HostConnection> {
    const client = new Client(
      { name: options.name ?? 'mcp-model-input-host', version: VERSION },
      {
        capabilities,
        versionNegotiation: { mode: options.negotiation === 'pin' ? { pin: MODERN_REVISION } : 'auto' },
        // The rounds are driven here, through the policies; the SDK hands each one back.
        inputRequired: { autoFulfill: false },
        // The schemas are the server's: their patterns run in linear time.
        jsonSchemaValidator: linearSchemaValidator,
      },
    );
    const server: ConnectedServer = { name: 'unknown', key: targetKey(target) };
    // Why the transport gave up, when it said: the error of the calls it ends names it.
    let closedBecause: string | undefined;
    client.onerror = (error) => {
      closedBecause ??= transportFailure(error);
    };
    const protocolError = (error: unknown, tool: string) => asProtocolError(error, tool, closedBecause);
    const legacy = createLegacyHandlers(client, server, options.principal, policiesFor, maxRounds);
    const clientName = options.name ?? 'mcp-model-input-host';
    const tasks = createTaskChannel(
      clientTransport(target, {
        ...(options.trace !== undefined && { trace: options.trace }),
        ...(options.maxResponseBodyBytes !== undefined && { maxResponseBodyBytes: options.maxResponseBodyBytes }),
      }),
      () => ({
        [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
        [CLIENT_CAPABILITIES_META_KEY]: capabilities,
        [CLIENT_INFO_META_KEY]: { name: clientName, version: VERSION },
      }),
    );
    try {
      await client.connect(tasks.transport);
    } catch (error) {
      await client.close().catch(() => {});
      throw protocolError(error, 'connect');
    }
    const info = client.getServerVersion();
    server.name = info?.name ?? 'unknown';
    if (info?.version !== undefined) server.version = info.version;
    const era = client.getNegotiatedProtocolVersion() === MODERN_REVISION ? 'modern' : 'legacy';
    const timeout = options.requestTimeoutMs === undefined ? {} : { timeout: options.requestTimeoutMs };

    async function listTools(): Promise<Tool[]> {
      try {
        return (await client.listTools(undefined, timeout)).tools;
      } catch (error) {
        throw protocolError(error, 'tools/list');
      }
    }

    /**
     * A leg lost in transit may have been accepted — its single-use state consumed — by an instance
     * that died before answering; retrying that leg could only be refused. So the whole call starts
     * again, once, with the same policies (budget, approval for the call), and the trace says so.
     */
    async function callModern(
      name: string,
      args: Record<string, unknown>,
      call: HostCallOptions,
      counters: CallCounters,
      declared: ClientCapabilities = capabilities,
    ): Promise<HostCallResult> {
      const policies = policiesFor(call.signal, declared);
      // Each 2026-07-28 request declares its own capabilities: a retry without sampling says so in _meta.
      const meta = declared === capabilities ? undefined : { [CLIENT_CAPABILITIES_META_KEY]: declared };
      const approval = { approvedForCall: false };
      try {
        return {
          ...(await driveRounds(name, args, call, policies, approval, meta, counters)),
          restarts: counters.restarts,
        };
      } catch (error) {
        const lost = error instanceof LostInTransit ? error : undefined;
        // Once per call, whatever happened before (a fallback retry shares the counters).
        if (lost === undefined || target.kind !== 'http' || call.signal?.aborted === true || counters.restarts > 0) {
          throw lost === undefined ? error : protocolError(lost.cause, name);
        }
        options.trace?.(
          `restart ${name}: ${lost.leg} was lost in transit (${lost.reason}); starting the call again (once)`,
        );
        counters.restarts += 1;
        try {
          return { ...(await driveRounds(name, args, call, policies, approval, meta, counters)), restarts: 1 };
        } catch (again) {
          throw again instanceof LostInTransit ? protocolError(again.cause, name) : again;
        }
      }
    }

    async function driveRounds(
      name: string,
      args: Record<string, unknown>,
      call: HostCallOptions,
      policies: RoundPolicies,
      approval: { approvedForCall: boolean },
      meta: Record<string, unknown> | undefined,
      counters: CallCounters,
    ): Promise<Omit<HostCallResult, 'restarts'>> {
      // Served from the SDK's cache within the server's ttlMs.
      const tools = await listTools().catch((error: unknown) => {
        const reason = lostInTransit(error);
        throw reason === undefined ? error : new LostInTransit('tools/list', reason, error);
      });
      const definition = tools.find((tool) => tool.name === name);
      const checkOutput = createOutputCheck(definition);
      const legDefinition = withoutOutputSchema(definition);
      let params: Record<string, unknown> = { name, arguments: args, ...(meta !== undefined && { _meta: meta }) };
      // Rounds are numbered, and capped, over the whole call: a restart does not reset them.
      for (let leg = 1; ; leg++) {
        const round = counters.rounds + 1;
        let answer: unknown;
        try {
          answer = await client.callTool(params as { name: string }, {
            allowInputRequired: true,
            // The SDK would check the input_required value against the output schema; see toolOutput.ts.
            ...(legDefinition !== undefined && { toolDefinition: legDefinition }),
            ...timeout,
            ...(call.signal !== undefined && { signal: call.signal }),
            ...(call.onProgress !== undefined && { onprogress: call.onProgress }),
          });
        } catch (error) {
          const reason = lostInTransit(error);
          if (reason !== undefined) throw new LostInTransit(`round ${round}`, reason, error);
          throw protocolError(error, name);
        }
        const task = taskOfResult(answer);
        if (task !== undefined) {
          return await driveTask({
            name,
            task,
            call,
            policies,
            approval,
            checkOutput,
            channel: tasks,
            server,
            maxRounds,
          });
        }
        if (!isInputRequiredResult(answer)) {
          checkOutput(answer as CallToolResult);
          const { tokens, bytes } = policies.budget.totals();
          return { result: answer as CallToolResult, rounds: leg - 1, usage: { tokens, bytes } };
        }
        const position: CallPosition = {
          server,
          ...(options.principal !== undefined && { principal: options.principal }),
          tool: name,
          round,
        };
        const requestState = (answer as { requestState?: unknown }).requestState;
        const inputRequests = (answer as { inputRequests?: unknown }).inputRequests;
        const stateBytes = typeof requestState === 'string' ? Buffer.byteLength(requestState) : undefined;
        if (counters.rounds >= maxRounds) {
          // Server-chosen keys: `__proto__` stays an own key.
          const summary = Object.create(null) as Record<string, { method: string }>;
          const last = rawInputRequests(inputRequests, position);
          for (const request of last) summary[request.key] = { method: request.method };
          auditRefusedRound(last, position, policies.audit, 'rounds_exceeded');
          throw new HostError('rounds_exceeded', `${name} still asked for input after ${maxRounds} rounds`, {
            round,
            lastResult: { inputRequests: summary, ...(stateBytes !== undefined && { requestStateBytes: stateBytes }) },
          });
        }
        if (requestState !== undefined && typeof requestState !== 'string') {
          throw new HostError('protocol_error', `${name}: requestState is not a string`, { round });
        }
        if (stateBytes !== undefined && stateBytes > limits.maxRequestStateBytes) {
          auditRefusedRound(rawInputRequests(inputRequests, position), position, policies.audit, 'state_too_large');
          throw new HostError(
            'state_too_large',
            `${name}: the server's requestState is ${stateBytes} bytes; the host carries at most ${limits.maxRequestStateBytes}`,
            { round },
          );
        }
        const raw = rawInputRequests(inputRequests, position);
        const responses = await fulfilRound(raw, position, policies, approval);
        counters.rounds += 1;
        call.onRound?.(
          round,
          raw.map((request) => request.key),
        );
        params = {
          name,
          // The caller's arguments, always: nothing in a server's answer changes what is called.
          arguments: args,
          ...(Object.keys(responses).length > 0 && { inputResponses: responses }),
          ...(requestState !== undefined && { requestState }),
          ...(meta !== undefined && { _meta: meta }),
        };
      }
    }

    async function callLegacy(
      name: string,
      args: Record<string, unknown>,
      call: HostCallOptions,
    ): Promise<HostCallResult> {
      let session: LegacyCallSession;
      // Aborted when the call itself fails (its request timed out, the connection closed): a dialog still open
      // for one of its live requests closes, saying why, instead of waiting for an answer nobody can use.
      const ended = new AbortController();
      const signal = call.signal === undefined ? ended.signal : AbortSignal.any([call.signal, ended.signal]);
      try {
        session = await legacy.begin(name, signal);
      } catch (error) {
        throw protocolError(error, name);
      }
      try {
        const result = (await client
          .callTool(
            { name, arguments: args },
            {
              ...timeout,
              ...(call.signal !== undefined && { signal: call.signal }),
              ...(call.onProgress !== undefined && { onprogress: call.onProgress }),
            },
          )
          .catch((error: unknown) => {
            const why = terminalSafe(error instanceof Error ? error.message : String(error), MAX_PEER_MESSAGE_CHARS);
            ended.abort(new Error(`the call ended before an answer (${why})`));
            throw error;
          })) as CallToolResult;
        const declined = onDeny === 'fallback' ? session.declined() : undefined;
        if (declined === undefined) session.rethrowStop();
        return {
          result,
          rounds: session.rounds(),
          restarts: 0,
          usage: session.usage(),
          ...(declined !== undefined && { declined: { reason: declined.message, how: 'server_continued' as const } }),
        };
      } catch (error) {
        session.rethrowStop();
        throw protocolError(error, name);
      } finally {
        session.end();
      }
    }

    async function callOnce(
      name: string,
      args: Record<string, unknown>,
      call: HostCallOptions,
    ): Promise<HostCallResult> {
      if (era !== 'modern') return callLegacy(name, args, call);
      const counters: CallCounters = { rounds: 0, restarts: 0 };
      try {
        return await callModern(name, args, call, counters);
      } catch (error) {
        if (onDeny !== 'fallback' || !isHostError(error) || error.code !== 'approval_denied') throw error;
        const { sampling, ...withoutSampling } = capabilities;
        if (sampling === undefined) throw error;
        // From the start, as a new call: the declined round's state is dropped, nothing is answered.
        const retried = await callModern(name, args, call, counters, withoutSampling);
        return { ...retried, declined: { reason: error.message, how: 'retried_without_sampling' } };
      }
    }

    return {
      server,
      era,
      async discover() {
        const tools = await listTools();
        const discovered = client.getDiscoverResult();
        const version = client.getNegotiatedProtocolVersion();
        const instructions = client.getInstructions();
        return {
          server: { ...server },
          era,
          ...(version !== undefined && { protocolVersion: version }),
          capabilities: { ...(client.getServerCapabilities() ?? discovered?.capabilities ?? {}) },
          ...(instructions !== undefined && { instructions }),
          tools,
        };
      },
      listTools,
      callTool: async (name, args = {}, call = {}) => {
        try {
          return await callOnce(name, args, call);
        } catch (error) {
          // Whatever the abort broke on its way (a leg, a dialog), the call was cancelled.
          if (call.signal?.aborted !== true || (isHostError(error) && error.code === 'cancelled')) throw error;
          throw new HostError('cancelled', `${name}: the call was cancelled`, {}, { cause: error });
        }
      },
      close: () => {
        legacy.close();
        return client.close();
      },
    };
  }

  return { capabilities, connect };
}
