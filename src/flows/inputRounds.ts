/**
 * The MRTR round machinery every multi-round handler shares (summarize_repo's flow engine, the
 * conformance fixture, any tool or prompt of a library user):
 *
 * - `openRound` verifies the echoed `requestState` (sealed, bound to principal, method, name and an
 *   argument digest) or starts fresh, and hands back only the responses to the keys it asked for;
 * - `askForInput` checks every embedded request against the capabilities THIS request declared
 *   (-32021 otherwise), enforces the round cap carried in the state, seals the next state and
 *   returns the `input_required` result.
 *
 * With a store, state is single use: the round that accepts a token consumes its id (atomically, on
 * every instance sharing the store); a second presentation is rejected like any invalid state. A store
 * that cannot answer refuses the round (-32603, saying so): never accept what cannot be checked.
 *
 * Rejected state is always -32602 with one fixed message; the reason goes to the log only.
 */
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import { missingCapability } from '../protocol/capabilities.js';
import { RequestStateRejectedError } from './roundErrors.js';
import {
  digestArguments,
  StateRejectedError,
  type StateBinding,
  type StateCodec,
  type StateRejectReason,
} from '../state/index.js';
import type { SharedStore } from '../state/stores/index.js';
import { StoreUnavailableError } from '../state/stores/storeUnavailableError.js';

export const STORE_UNAVAILABLE_MESSAGE =
  'The request-state store is unreachable: this server refuses MRTR rounds until it is back. Retry later.';
export const DEFAULT_MAX_ROUNDS = 6;

/** What is sealed into `requestState` between rounds. */
export interface SealedRound<State> {
  s: State;
  /** The input keys the last `input_required` asked for. */
  awaiting: string[];
  /** How many `input_required` results this call has had. */
  round: number;
}

/** The request as the round machinery sees it: who, which capabilities, what came back. */
export interface RoundRequest {
  principal: string;
  clientCapabilities: ClientCapabilities;
  requestState: unknown;
  inputResponses: Record<string, unknown> | undefined;
  /** The state is the server's own (a task's), not a client's echo: it is not single use (see ToolContext). */
  serverHeldState?: boolean;
}

/** What the round machinery reports (metrics); every member optional. */
export interface RoundEvents {
  /** A retry's state was verified and accepted. */
  roundAccepted?(): void;
  stateRejected?(reason: StateRejectReason | 'store_unavailable'): void;
  inputRequired?(): void;
}

export interface RoundOptions {
  codec: StateCodec<SealedRound<unknown>>;
  logger: Logger;
  maxRounds?: number;
  /** Single use: consumed state ids (in-process or shared by a fleet). Without one, state is single-flow only. */
  store?: Pick<SharedStore, 'consumeOnce'>;
  events?: RoundEvents;
  /**
   * For handlers that always mint state when they ask for input: `inputResponses` without
   * `requestState` cannot answer anything they asked, and is refused (-32602) instead of being
   * dropped as a new call. A handler that runs rounds without state (`askWithoutState`) leaves it off.
   */
  requireState?: boolean;
}

/** What the state is bound to besides the principal. */
export interface RoundTarget {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** Tool or prompt name, or resource URI. */
  name: string;
  args: unknown;
}

export interface OpenedRound<State> {
  state: State;
  round: number;
  /** Responses to the awaited keys that this retry carried (other keys are ignored). */
  responses: Record<string, unknown>;
  /** Awaited keys this retry did not answer. */
  missing: string[];
}

export function bindingOf(request: RoundRequest, target: RoundTarget): StateBinding {
  return {
    principal: request.principal,
    method: target.method,
    tool: target.name,
    argumentsDigest: digestArguments(target.args),
  };
}

export async function openRound<State>(
  request: RoundRequest,
  target: RoundTarget,
  options: RoundOptions,
  initial: () => State,
): Promise<OpenedRound<State>> {
  if (request.requestState === undefined) {
    if (options.requireState === true && Object.keys(request.inputResponses ?? {}).length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${target.name}: inputResponses without requestState: a retry must echo the requestState of the ` +
          'input_required result it answers (or start the call again without inputResponses)',
      );
    }
    return { state: initial(), round: 0, responses: {}, missing: [] };
  }
  const reject = (reason: StateRejectReason): never => {
    options.events?.stateRejected?.(reason);
    options.logger.warn(
      `${target.name}: request state rejected (${reason}) for principal ${request.principal}`,
      'state_rejected',
    );
    throw new RequestStateRejectedError();
  };
  let sealed: SealedRound<State>;
  try {
    const opened = (options.codec as StateCodec<SealedRound<State>>).openState(
      request.requestState,
      bindingOf(request, target),
    );
    if (
      options.store !== undefined &&
      request.serverHeldState !== true &&
      !(await options.store.consumeOnce(opened.id, opened.expiresAtMs))
    ) {
      return reject('replayed');
    }
    sealed = opened.payload;
  } catch (error) {
    if (error instanceof StateRejectedError) return reject(error.reason);
    if (!(error instanceof StoreUnavailableError)) throw error;
    options.events?.stateRejected?.('store_unavailable');
    options.logger.warn(
      `${target.name}: ${error.message}: round refused for principal ${request.principal}`,
      'store_unavailable',
    );
    throw new ProtocolError(ProtocolErrorCode.InternalError, STORE_UNAVAILABLE_MESSAGE);
  }
  options.events?.roundAccepted?.();
  const responses: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const key of sealed.awaiting) {
    const response = request.inputResponses?.[key];
    if (response === undefined) missing.push(key);
    else responses[key] = response;
  }
  return { state: sealed.s, round: sealed.round, responses, missing };
}

/** Throws -32021 unless the request declared every capability these embedded requests need. */
export function assertCapabilities(requests: Record<string, InputRequest>, capabilities: ClientCapabilities): void {
  for (const [key, request] of Object.entries(requests)) {
    const missing = missingCapability(request.method, request.params, capabilities);
    if (missing !== undefined) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing.required as ClientCapabilities },
        `input '${key}' (${request.method}) needs the ${missing.capability} capability, which this request did not declare`,
      );
    }
  }
}

export type AskOutcome = { kind: 'asked'; result: InputRequiredResult } | { kind: 'too_large'; message: string };

export function askForInput<State>(
  request: RoundRequest,
  target: RoundTarget,
  options: RoundOptions,
  state: State,
  round: number,
  requests: Record<string, InputRequest>,
): AskOutcome {
  assertCapabilities(requests, request.clientCapabilities);
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  if (round >= maxRounds) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${target.name}: round limit of ${maxRounds} reached without the needed input responses`,
    );
  }
  const sealed: SealedRound<State> = { s: state, awaiting: Object.keys(requests), round: round + 1 };
  try {
    const requestState = (options.codec as StateCodec<SealedRound<State>>).seal(bindingOf(request, target), sealed);
    options.events?.inputRequired?.();
    return { kind: 'asked', result: inputRequired({ inputRequests: requests, requestState }) };
  } catch (error) {
    if (!(error instanceof StateRejectedError)) throw error;
    options.logger.warn(`${target.name}: request state too large to seal (${error.reason})`);
    return {
      kind: 'too_large',
      message: `The state of this ${target.name} call is too large to carry between rounds. Ask for fewer items or shorter inputs.`,
    };
  }
}

/**
 * An ephemeral round: `input_required` without `requestState`, for a handler that needs nothing
 * carried between rounds and takes its answers from the retry alone (the spec allows either).
 * Capabilities are checked as for `askForInput`; there is no state, so no server-side round cap.
 */
export function askWithoutState(request: RoundRequest, requests: Record<string, InputRequest>): InputRequiredResult {
  assertCapabilities(requests, request.clientCapabilities);
  return inputRequired({ inputRequests: requests });
}
