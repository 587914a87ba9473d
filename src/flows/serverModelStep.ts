/**
 * One flow step answered by a server-owned model inside the current `tools/call`. The call goes
 * through the tool call's usage meter (budget, token count, one log line). When the step declares a
 * recovery and the answer is unusable, the model gets one repair attempt (its answer plus what was
 * wrong with it); when that fails too — or the model refuses, or its answer is not a valid response —
 * the step's deterministic fallback decides. Answers from the host's model never come here: they are
 * the client's input and are validated strictly.
 */
import type { CallToolResult, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { CompletionModel } from '../models/modelSource.js';
import { isModelProviderError } from '../models/providerError.js';
import type { UsageMeter } from '../models/usage.js';
import { answerText, type FlowState, type ModelStep, type StepOutcome } from './flow.js';
import { FlowAnswerError } from './flowAnswerError.js';

/** How much of an unusable answer is shown back to the model in the repair request. */
const MAX_REPAIR_ECHO = 4000;
/** Stands in for an empty answer: providers reject empty (or blank) text turns (the Messages API does). */
export const EMPTY_ANSWER_TURN = '(empty answer)';

export interface ServerStepInput<Args, State extends FlowState> {
  tool: string;
  step: ModelStep<Args, State>;
  model: CompletionModel;
  args: Args;
  state: State;
  params: CreateMessageRequestParams;
  meter: UsageMeter;
  logger: Logger;
  signal: AbortSignal;
}

function repairRequest(
  params: CreateMessageRequestParams,
  answer: CreateMessageResult,
  instruction: string,
): CreateMessageRequestParams {
  const said = answerText(answer);
  let echo = said.length > MAX_REPAIR_ECHO ? `${said.slice(0, MAX_REPAIR_ECHO)}…` : said;
  if (said.trim() === '') echo = EMPTY_ANSWER_TURN;
  return {
    ...params,
    messages: [
      ...params.messages,
      { role: 'assistant', content: { type: 'text', text: echo } },
      { role: 'user', content: { type: 'text', text: instruction } },
    ],
  };
}

/** Refusals and invalid responses leave nothing to repair: a step with a fallback falls back. */
function isUnusableResponse(error: unknown): boolean {
  return isModelProviderError(error) && (error.failure === 'refused' || error.failure === 'bad_response');
}

/** Throws `FlowAnswerError` or `ModelProviderError` when the step cannot complete; see `serverFailureResult`. */
export async function runServerModelStep<Args, State extends FlowState>(
  input: ServerStepInput<Args, State>,
): Promise<StepOutcome<State>> {
  const { step, model, args, state, params, meter, signal } = input;
  const recover = step.recover;
  const fallBack = async (reason: string): Promise<StepOutcome<State>> => {
    if (recover === undefined) throw new Error('no fallback');
    input.logger.warn(`${input.tool}: ${step.key}: falling back (${reason})`);
    return recover.fallback(args, state, params, reason, signal);
  };

  let answer: CreateMessageResult;
  try {
    answer = await meter.complete(model, { key: step.key, params, signal });
  } catch (error) {
    if (recover !== undefined && isUnusableResponse(error)) return fallBack((error as Error).message);
    throw error;
  }
  try {
    return await step.accept(args, state, answer, signal);
  } catch (error) {
    if (!(error instanceof FlowAnswerError) || recover === undefined) throw error;
    let repaired: CreateMessageResult;
    try {
      const request = repairRequest(params, answer, recover.repairInstruction(args, error));
      repaired = await meter.complete(model, { key: step.key, params: request, signal });
    } catch (repairError) {
      if (!isModelProviderError(repairError)) throw repairError;
      return fallBack(`${error.message}; the repair request failed: ${repairError.message}`);
    }
    try {
      return await step.accept(args, state, repaired, signal);
    } catch (second) {
      if (!(second instanceof FlowAnswerError)) throw second;
      return fallBack(`${second.message}, also after one repair request`);
    }
  }
}

/** The tool error for a step a server-owned model could not complete; undefined for other errors. */
export function serverFailureResult(error: unknown): CallToolResult | undefined {
  let text: string;
  if (error instanceof FlowAnswerError) {
    text = `The server's model gave an unusable answer for ${error.key}: ${error.message}. Try again, or ask the server operator for another model.`;
  } else if (isModelProviderError(error)) {
    text = `The server's model could not answer: ${error.message}. What to do: ${error.hint}.`;
  } else {
    return undefined;
  }
  return { content: [{ type: 'text', text }], isError: true };
}
