/**
 * A model-assisted tool flow as a small state machine: each phase is one model step
 * (prepare a `sampling/createMessage` request, then accept the answer). The engine runs
 * the phases in one call when the model is server-owned, or across MRTR rounds when the
 * model is the host's; the flow itself never knows which.
 */
import type { CallToolResult, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

export interface FlowState {
  phase: string;
}

export interface PreparedRequest<State> {
  params: CreateMessageRequestParams;
  /** State to carry forward with the request (e.g. what was listed or read to build it). */
  state?: State;
}

export type StepOutcome<State> = { next: State } | { done: CallToolResult };

export interface ModelStep<Args, State extends FlowState> {
  /** The input key on the wire, e.g. `pick_files`. */
  key: string;
  prepare(args: Args, state: State, signal: AbortSignal): Promise<PreparedRequest<State> | { done: CallToolResult }>;
  /** Throws `FlowAnswerError` when the answer cannot be used. */
  accept(args: Args, state: State, answer: CreateMessageResult, signal: AbortSignal): Promise<StepOutcome<State>>;
}

export interface FlowDefinition<Args, State extends FlowState> {
  tool: string;
  /** Every input key the flow may ask for, in order (capabilities are checked for all up front). */
  keys: readonly string[];
  initial(args: Args): State;
  step(state: State): ModelStep<Args, State>;
}

/** The text of a sampling result (a single block or an array; text blocks only). */
export function answerText(answer: CreateMessageResult): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
