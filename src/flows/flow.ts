/**
 * A model-assisted tool flow as a small state machine: each phase is one model step
 * (prepare a `sampling/createMessage` request, then accept the answer). The engine runs
 * the phases in one call when the model is server-owned, or across MRTR rounds when the
 * model is the host's; the flow itself never knows which.
 */
import type { CallToolResult, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../models/modelSource.js';
import type { FlowAnswerError } from './flowAnswerError.js';

export interface FlowState {
  phase: string;
}

export interface PreparedRequest<State> {
  params: CreateMessageRequestParams;
  /** State to carry forward with the request (e.g. what was listed or read to build it). */
  state?: State;
}

export type StepOutcome<State> = { next: State } | { done: CallToolResult };

/**
 * What a step does when a server-owned model's answer is unusable (never for the host's model,
 * whose answers are the client's input): one repair request, then a deterministic fallback.
 */
export interface StepRecovery<Args, State extends FlowState> {
  /** The follow-up user message of the one repair request, after the unusable answer. */
  repairInstruction(args: Args, error: FlowAnswerError): string;
  /**
   * Completes the step without the model, from the request that was sent (`reason` says why); the
   * outcome should say that it is a fallback. May throw `FlowAnswerError` when even that is impossible.
   */
  fallback(
    args: Args,
    state: State,
    params: CreateMessageRequestParams,
    reason: string,
    signal: AbortSignal,
  ): Promise<StepOutcome<State>>;
}

export interface ModelStep<Args, State extends FlowState> {
  /** The input key on the wire, e.g. `pick_files`. */
  key: string;
  prepare(args: Args, state: State, signal: AbortSignal): Promise<PreparedRequest<State> | { done: CallToolResult }>;
  /** Throws `FlowAnswerError` when the answer cannot be used. */
  accept(args: Args, state: State, answer: CreateMessageResult, signal: AbortSignal): Promise<StepOutcome<State>>;
  /** Optional: repair and fallback for server-owned models. Without it an unusable answer is a tool error. */
  recover?: StepRecovery<Args, State>;
}

export interface FlowDefinition<Args, State extends FlowState> {
  tool: string;
  /** Every input key the flow may ask for, in order (capabilities are checked for all up front). */
  keys: readonly string[];
  initial(args: Args): State;
  step(state: State): ModelStep<Args, State>;
  /**
   * When set, the engine writes the tool call's server-owned model usage (`calls`, `inputTokens`,
   * `outputTokens`, `models`) into this field of every successful result's `structuredContent`.
   */
  usageField?: string;
  /** The flow's own deterministic heuristic: what a `builtin` model source runs (see models/sources.ts). */
  builtin?: CompletionModel;
  /**
   * When set, notes the engine adds (a server-owned model answered a step in place of the host's)
   * are appended to this string-array field of a successful result's `structuredContent`, as well as
   * to its text content.
   */
  notesField?: string;
  /**
   * Every request of the flow offers tools (tools in sampling, SEP-1577): the host's model serves it only when
   * the request declares `sampling.tools` (otherwise the plan's next source, else -32021 naming it), and a
   * server-owned model only when it `usesTools` (otherwise the call is an `isError` result).
   */
  usesTools?: boolean;
  /** MRTR rounds the flow may take when the engine is given no `maxRounds` (default `DEFAULT_MAX_ROUNDS`). */
  maxRounds?: number;
}

/** The text of a sampling result (a single block or an array; text blocks only). */
export function answerText(answer: CreateMessageResult): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
