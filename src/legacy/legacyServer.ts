/**
 * The SDK's low-level `Server`, plus what the legacy adapter needs on a 2025-11-25 connection. On a
 * 2026-07-28 request everything here is inert.
 *
 * The SDK's legacy shim serves write-once handlers to 2025-era sessions: when `tools/call` answers
 * `input_required`, it sends each embedded request as a live server-to-client request and re-enters
 * the handler with the answers. This class adds, per `tools/call`:
 * - a ledger of the live `sampling/createMessage` requests sent (the per-call sample limit);
 * - a sampling request the host could not answer (any error answer — a refusal, -1, or its model failing, 0,
 *   -32603… — a timeout, or a result that is not a sampling result: samplingFailure.ts) turned into a re-entry
 *   that knows the host's model is gone, so the flow can end with an `isError` result naming why, or continue on
 *   a server-owned model;
 * - the `initialize`-declared capabilities as the request's own (a legacy request has no `_meta`);
 * - on a re-entry, an invalid-params failure about params the client never sent (its answer came back
 *   after the call's sealed state expired, or was not a sampling result) as an `isError` result: a
 *   -32602 about `inputResponses`/`requestState` would name things it never saw. An unusable answer
 *   of the client's model stays -32602 (`UnusableAnswerError`, as on 2026-07-28) unless a server-owned
 *   model answers that step instead;
 * - at most `maxCallsInFlight` legacy tool calls at once per connection: each may hold a live
 *   sampling request open (for as long as the client keeps sending progress), so their number is bounded.
 */
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageRequestParamsBase,
  type CreateMessageRequestParamsWithTools,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCRequest,
  type RequestId,
  type RequestOptions,
  type Result,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';

import { InputResponseError, RequestStateRejectedError } from '../flows/roundErrors.js';
import { UnusableAnswerError } from '../flows/unusableAnswerError.js';
import type { EraRequestView, ToolCallOutcome } from '../server/era.js';
import { printable } from '../protocol/sanitize.js';
import { samplingFailureReason } from './samplingFailure.js';
import { DEFAULT_MAX_CALLS_IN_FLIGHT, DEFAULT_MAX_SAMPLES_PER_CALL, type LegacyServerOptions } from './options.js';

export { SAMPLING_REJECTED_CODE } from './samplingFailure.js';
const REFUSAL_DETAIL_CHARS = 200;

/** What one legacy tools/call has asked of the client so far. */
interface LegacyCall {
  /** Live sampling requests sent. */
  samples: number;
  /** The sampling keys of the round in flight. */
  asking: string[];
  /** Set once the host could not answer a sampling request: its model is not asked again in this call. */
  refusal?: string;
  /** Handler entries so far: the first, then one per shim re-entry. */
  entries: number;
}

/**
 * How a legacy request looks to a tool (see `toolContextOf`): capabilities declared at `initialize`,
 * without `sampling` once the client refused a sampling request.
 */
export type LegacyToolView = EraRequestView;

// The shim re-enters the handler only after every leg of a round succeeded; a refused leg resolves
// to this placeholder, which the re-entered handler never sees (the call's `refusal` drops it).
const REFUSED: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: '' }, model: 'refused' };

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An invalid-params failure of a re-entered handler, as the tool result a 2025-11-25 client gets: its
 * inputs were the shim's (the client's sampling answers and our own sealed state), not its params.
 */
function reentryFailure(tool: string, error: unknown): CallToolResult | undefined {
  // An unusable answer from the client's model is -32602 with the input key and the reason on both
  // revisions (its message names neither inputResponses nor requestState).
  if (error instanceof UnusableAnswerError) return undefined;
  if (error instanceof RequestStateRejectedError) {
    return toolError(
      `${tool} stopped: the client's sampling answer came back after this call's state had expired ` +
        '(the server limits each round with --state-ttl). Call the tool again, and answer sooner.',
    );
  }
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.InvalidParams) return undefined;
  const answer = error instanceof InputResponseError ? error : undefined;
  const detail = printable(answer?.reason ?? error.message).slice(0, REFUSAL_DETAIL_CHARS);
  const key = answer === undefined ? '' : ` to the sampling request for '${printable(answer.key)}'`;
  return toolError(
    `${tool} stopped: the client's model gave an unusable answer${key}: ${detail}. Call the tool again.`,
  );
}

function samplingKeys(result: InputRequiredResult): string[] {
  return Object.entries(result.inputRequests ?? {})
    .filter(([, request]) => request.method === 'sampling/createMessage')
    .map(([key]) => key);
}

export class LegacyAwareServer extends Server {
  readonly #calls = new Map<RequestId, LegacyCall>();
  readonly #maxSamples: number;
  readonly #maxCallsInFlight: number;

  constructor(identity: Implementation, options: ServerOptions, legacy: LegacyServerOptions = {}) {
    const maxSamples = legacy.maxSamplesPerCall ?? DEFAULT_MAX_SAMPLES_PER_CALL;
    // The shim's own cap counts rounds; one round may carry several samples, so samples are counted
    // here too. Both use the same number: a round without a sample is still bounded by the shim.
    super(identity, { ...options, inputRequired: { ...options.inputRequired, maxRounds: maxSamples } });
    this.#maxSamples = maxSamples;
    this.#maxCallsInFlight = legacy.maxCallsInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT;
    const negotiated = legacy.onSamplingNegotiated;
    if (negotiated !== undefined) {
      this.oninitialized = () => {
        if (this.getClientCapabilities()?.sampling !== undefined) negotiated();
      };
    }
  }

  /** True once a 2025-era `initialize` bound this instance (never for a 2026-07-28 request). */
  servesLegacyEra(): boolean {
    // The SDK keeps the era as the negotiated version; there is no public accessor for it.
    const version = this._negotiatedProtocolVersion;
    return version !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(version);
  }

  /**
   * Runs one entry of a `tools/call` handler (the first, or a shim re-entry): `run` gets the legacy
   * view of the request (undefined on 2026-07-28), and an `input_required` answer that would exceed
   * the per-call sample limit becomes an `isError` result instead of another live request.
   */
  async serveToolCall(
    ctx: ServerContext,
    tool: string,
    run: (legacy: LegacyToolView | undefined) => Promise<ToolCallOutcome>,
  ): Promise<ToolCallOutcome> {
    const call = this.servesLegacyEra() ? this.#calls.get(ctx.mcpReq.id) : undefined;
    if (call === undefined) return run(undefined);
    call.entries += 1;
    let result: ToolCallOutcome;
    try {
      result = await run(this.#viewOf(ctx, call));
    } catch (error) {
      const failure = call.entries > 1 ? reentryFailure(tool, error) : undefined;
      if (failure === undefined) throw error;
      return failure;
    }
    if (!isInputRequiredResult(result)) return result;
    const asking = samplingKeys(result);
    if (call.samples + asking.length > this.#maxSamples) {
      return toolError(
        `${tool} stopped: it needs another sampling request, and this server allows ${this.#maxSamples} ` +
          `per tool call (${call.samples} sent). Call the tool again, or ask the operator to raise the limit.`,
      );
    }
    call.asking = asking;
    return result;
  }

  #viewOf(ctx: ServerContext, call: LegacyCall): LegacyToolView {
    const declared = this.getClientCapabilities() ?? {};
    const name = this.getClientVersion()?.name;
    const clientName = typeof name === 'string' ? { clientName: name } : {};
    if (call.refusal !== undefined) {
      const { sampling: _refused, ...others } = declared;
      return {
        clientCapabilities: others,
        inputResponses: undefined,
        hostUnavailable: call.refusal,
        maxSamples: this.#maxSamples,
        ...clientName,
      };
    }
    return {
      maxSamples: this.#maxSamples,
      clientCapabilities: declared,
      inputResponses: ctx.mcpReq.inputResponses,
      ...clientName,
      ...(declared.sampling === undefined && {
        hostUnavailable: 'the client did not declare the sampling capability at initialize',
        samplingUndeclared: true,
      }),
    };
  }

  // Around the SDK's own wrapper (and so around the shim's whole loop): the call's ledger lives
  // exactly as long as the legacy tools/call request.
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      if (!this.servesLegacyEra() || this.#calls.has(request.id)) return wrapped(request, ctx);
      if (this.#calls.size >= this.#maxCallsInFlight) {
        return toolError(
          `This connection already has ${this.#calls.size} tool calls in flight, the most this server serves ` +
            'at once to a 2025-11-25 client. Wait for one to finish, then call the tool again.',
        );
      }
      this.#calls.set(request.id, { samples: 0, asking: [], entries: 0 });
      try {
        return await wrapped(request, ctx);
      } finally {
        this.#calls.delete(request.id);
      }
    };
  }

  // The shim sends every sampling leg through this method (tied to its tools/call by
  // `relatedRequestId`): legs are counted here, and a failure the host answered (samplingFailure.ts) is recorded
  // instead of failing the round.
  override createMessage(
    params: CreateMessageRequestParamsBase,
    options?: RequestOptions,
  ): Promise<CreateMessageResult>;
  override createMessage(
    params: CreateMessageRequestParamsWithTools,
    options?: RequestOptions,
  ): Promise<CreateMessageResultWithTools>;
  override createMessage(
    params: CreateMessageRequest['params'],
    options?: RequestOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  override async createMessage(
    params: CreateMessageRequest['params'],
    options?: RequestOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const related = options?.relatedRequestId;
    const call = related === undefined ? undefined : this.#calls.get(related);
    if (call === undefined) return super.createMessage(params, options);
    call.samples += 1;
    try {
      return await super.createMessage(params, options);
    } catch (error) {
      const keys = call.asking.map((key) => `'${key}'`).join(', ') || 'model input';
      const reason = samplingFailureReason(error, keys);
      if (reason === undefined) throw error;
      call.refusal = reason;
      return REFUSED;
    }
  }
}
