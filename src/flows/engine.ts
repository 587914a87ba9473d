/**
 * The flow engine: runs a `FlowDefinition` for one `tools/call`, across MRTR rounds when
 * a step's model is the host's, inline when it is server-owned.
 *
 * Per round: check capabilities (before any work), open and verify the sealed state,
 * take this round's answer if it is the one we asked for, then advance phases until the
 * flow completes or needs the host again. A missing answer is asked for again (spec),
 * counted against the round cap carried in the sealed state.
 *
 * A server-owned model answers inside the call (serverModelStep.ts: usage meter, one repair
 * request, the step's fallback); its failures become `isError` results with what to do. The
 * tool call's usage goes into the result's `structuredContent` when the flow names a field.
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
import { createUsageMeter, DEFAULT_MODEL_BUDGET, type UsageMeter, type UsageTotals } from '../models/usage.js';
import type { ToolContext } from '../server/tool.js';
import { digestArguments, StateRejectedError, type StateBinding, type StateCodec } from '../state/index.js';
import type { FlowDefinition, FlowState, StepOutcome } from './flow.js';
import { FlowAnswerError } from './flowAnswerError.js';
import { runServerModelStep, serverFailureResult } from './serverModelStep.js';

export const DEFAULT_MAX_ROUNDS = 6;
export const MAX_ANSWER_BYTES = 256 * 1024;
const REJECTED_STATE_MESSAGE = 'Invalid or expired requestState';

/** What the engine seals into `requestState` between rounds. */
export interface SealedFlow<State> {
  s: State;
  awaiting: string | null;
  round: number;
  /** Server-owned model usage of earlier rounds (only when some step already used one). */
  u?: UsageTotals;
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

/** A successful result gets the tool call's usage in the flow's `usageField`. */
function withUsage(result: CallToolResult, field: string | undefined, meter: UsageMeter): CallToolResult {
  if (field === undefined || result.isError === true || result.structuredContent === undefined) return result;
  return { ...result, structuredContent: { ...result.structuredContent, [field]: meter.totals() } };
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

  const meter = createUsageMeter({
    budget: options.models.budget ?? DEFAULT_MODEL_BUDGET,
    logger: options.logger,
    ...(sealed.u !== undefined && { start: sealed.u }),
  });
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
        let requestState: string;
        try {
          const usage = meter.totals();
          requestState = codec.seal(binding, {
            s: state,
            awaiting: step.key,
            round: sealed.round + 1,
            ...(usage.calls > 0 && { u: usage }),
          });
        } catch (error) {
          if (!(error instanceof StateRejectedError)) throw error;
          options.logger.warn(`${flow.tool}: request state too large to seal (${error.reason})`);
          return toolError(
            `The state of this ${flow.tool} call is too large to carry between rounds. Ask for fewer items or shorter inputs.`,
          );
        }
        return inputRequired({
          inputRequests: { [step.key]: inputRequired.createMessage(prepared.params) },
          requestState,
        });
      }
      let outcome: StepOutcome<State>;
      try {
        outcome = await runServerModelStep({
          tool: flow.tool,
          step,
          model: source.model,
          args,
          state,
          params: prepared.params,
          meter,
          logger: options.logger,
          signal: ctx.signal,
        });
      } catch (error) {
        const failed = serverFailureResult(error);
        if (failed === undefined) throw error;
        return failed;
      }
      if ('done' in outcome) return withUsage(outcome.done, flow.usageField, meter);
      state = outcome.next;
      continue;
    }

    // The host's answer is the client's input: an unusable one is invalid params, never repaired.
    try {
      const outcome = await step.accept(args, state, answer, ctx.signal);
      if ('done' in outcome) return withUsage(outcome.done, flow.usageField, meter);
      state = outcome.next;
    } catch (error) {
      if (!(error instanceof FlowAnswerError)) throw error;
      throw invalidParams(`inputResponses.${error.key}: ${error.message}`);
    }
  }
}
