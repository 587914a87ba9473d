/**
 * The flow engine: runs a `FlowDefinition` for one `tools/call`, across MRTR rounds when
 * a step's model is the host's, inline when it is server-owned.
 *
 * Per round: check capabilities (before any work), open and verify the sealed state,
 * take this round's answer if it is the one we asked for, then advance phases until the
 * flow completes or needs the host again. A missing answer is asked for again (spec),
 * counted against the round cap carried in the sealed state.
 */
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CreateMessageResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { Logger } from '../logger.js';
import type { ModelPlan } from '../models/sources.js';
import type { ToolContext } from '../server/tool.js';
import { digestArguments, StateRejectedError, type StateBinding, type StateCodec } from '../state/index.js';
import type { FlowDefinition, FlowState } from './flow.js';
import { FlowAnswerError } from './flowAnswerError.js';

export const DEFAULT_MAX_ROUNDS = 6;
export const MAX_ANSWER_BYTES = 256 * 1024;
const REJECTED_STATE_MESSAGE = 'Invalid or expired requestState';

/** What the engine seals into `requestState` between rounds. */
export interface SealedFlow<State> {
  s: State;
  awaiting: string | null;
  round: number;
}

export interface EngineOptions {
  codec: StateCodec<SealedFlow<unknown>>;
  models: ModelPlan;
  logger: Logger;
  maxRounds?: number;
}

const contentBlock = z.looseObject({ type: z.string() });
const samplingResult = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([contentBlock, z.array(contentBlock).min(1)]),
  model: z.string(),
  stopReason: z.string().optional(),
});

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

function readAnswer(key: string, raw: unknown): CreateMessageResult {
  const parsed = samplingResult.safeParse(raw);
  if (!parsed.success) throw invalidParams(`inputResponses.${key} is not a valid sampling/createMessage result`);
  if (Buffer.byteLength(JSON.stringify(raw), 'utf8') > MAX_ANSWER_BYTES) {
    throw invalidParams(`inputResponses.${key} exceeds ${MAX_ANSWER_BYTES} bytes`);
  }
  return parsed.data as unknown as CreateMessageResult;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export async function runFlow<Args, State extends FlowState>(
  flow: FlowDefinition<Args, State>,
  args: Args,
  ctx: ToolContext,
  options: EngineOptions,
): Promise<CallToolResult | InputRequiredResult> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  // Decided before any repository work or state minting.
  for (const key of flow.keys) {
    if (options.models.sourceFor(key, ctx.clientCapabilities) === undefined) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { sampling: {} } },
        `${flow.tool} needs model input '${key}' from the client's model: declare the sampling capability`,
      );
    }
  }

  const binding: StateBinding = {
    principal: ctx.principal,
    method: 'tools/call',
    tool: flow.tool,
    argumentsDigest: digestArguments(args),
  };
  const codec = options.codec as StateCodec<SealedFlow<State>>;
  let sealed: SealedFlow<State>;
  if (ctx.requestState === undefined) {
    sealed = { s: flow.initial(args), awaiting: null, round: 0 };
  } else {
    try {
      sealed = codec.open(ctx.requestState, binding);
    } catch (error) {
      if (error instanceof StateRejectedError) {
        options.logger.warn(`${flow.tool}: request state rejected (${error.reason}) for principal ${ctx.principal}`);
        throw invalidParams(REJECTED_STATE_MESSAGE);
      }
      throw error;
    }
  }

  let state = sealed.s;
  let pending = sealed.awaiting;
  for (;;) {
    const step = flow.step(state);
    const source = options.models.sourceFor(step.key, ctx.clientCapabilities);
    if (source === undefined) throw new Error(`no model source for ${step.key}`); // checked above
    let answer: CreateMessageResult | undefined;
    const raw = pending === step.key ? ctx.inputResponses?.[step.key] : undefined;
    if (raw !== undefined) answer = readAnswer(step.key, raw);
    pending = null;

    if (answer === undefined) {
      const prepared = await step.prepare(args, state, ctx.signal);
      if ('done' in prepared) return prepared.done;
      state = prepared.state ?? state;
      if (source.kind === 'host') {
        if (sealed.round >= maxRounds) {
          throw invalidParams(`${flow.tool}: round limit of ${maxRounds} reached without the needed input responses`);
        }
        const requestState = codec.seal(binding, { s: state, awaiting: step.key, round: sealed.round + 1 });
        return inputRequired({
          inputRequests: { [step.key]: inputRequired.createMessage(prepared.params) },
          requestState,
        });
      }
      answer = await source.model.complete({ key: step.key, params: prepared.params, signal: ctx.signal });
    }

    try {
      const outcome = await step.accept(args, state, answer, ctx.signal);
      if ('done' in outcome) return outcome.done;
      state = outcome.next;
    } catch (error) {
      if (!(error instanceof FlowAnswerError)) throw error;
      if (source.kind === 'host') throw invalidParams(`inputResponses.${error.key}: ${error.message}`);
      return toolError(`The server's model gave an unusable answer for ${error.key}: ${error.message}`);
    }
  }
}
