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
 * request, the step's fallback); its failures — the request's model deadline included — become
 * `isError` results with what to do. The tool call's usage goes into the result's
 * `structuredContent` when the flow names a field.
 *
 * Legacy (2025-11-25) calls may carry `hostUnavailable` (sampling not declared at `initialize`, or
 * refused during the call): then a step without a source is an `isError` result naming the reason,
 * and a step served by a server-owned model listed after `host` is noted in the result.
 */
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  type CallToolResult,
  type CreateMessageResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { CompletionModel } from '../models/modelSource.js';
import type { ModelPlan, ModelSource } from '../models/sources.js';
import { createUsageMeter, DEFAULT_MODEL_BUDGET, type UsageMeter, type UsageTotals } from '../models/usage.js';
import type { ToolContext } from './tool.js';
import type { StateCodec } from '../state/index.js';
import type { FlowDefinition, FlowState, StepOutcome } from './flow.js';
import { FlowAnswerError } from './flowAnswerError.js';
import { askForInput, openRound, type RoundTarget, type SealedRound } from './inputRounds.js';
import { readSamplingResult } from './inputResponses.js';
import { InputResponseError } from './roundErrors.js';
import { runServerModelStep, serverFailureResult } from './serverModelStep.js';

export { DEFAULT_MAX_ROUNDS } from './inputRounds.js';

/** What the engine carries between rounds, inside the round machinery's sealed state. */
export interface FlowRoundState<State> {
  /** The flow's own state. */
  f: State;
  /** Server-owned model usage of earlier rounds (only when some step already used one). */
  u?: UsageTotals;
}

/** The sealed `requestState` payload of a flow. */
export type SealedFlow<State> = SealedRound<FlowRoundState<State>>;

export interface EngineOptions {
  codec: StateCodec<SealedFlow<unknown>>;
  models: ModelPlan;
  logger: Logger;
  maxRounds?: number;
  /** The usage meter's clock (latency, the model deadline); injected in tests. */
  now?: () => number;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A successful result gets the tool call's usage in the flow's `usageField`. */
function withUsage(result: CallToolResult, field: string | undefined, meter: UsageMeter): CallToolResult {
  if (field === undefined || result.isError === true || result.structuredContent === undefined) return result;
  return { ...result, structuredContent: { ...result.structuredContent, [field]: meter.totals() } };
}

/** The model a server-side source runs: a provider, or the flow's own heuristic for `builtin`. */
function serverModel(source: ModelSource, flow: FlowDefinition<unknown, FlowState>): CompletionModel | undefined {
  if (source.kind === 'server') return source.model;
  return source.kind === 'builtin' ? flow.builtin : undefined;
}

export async function runFlow<Args, State extends FlowState>(
  flow: FlowDefinition<Args, State>,
  args: Args,
  ctx: ToolContext,
  options: EngineOptions,
): Promise<CallToolResult | InputRequiredResult> {
  // Decided before any repository work or state minting.
  for (const key of flow.keys) {
    const source = options.models.sourceFor(key, ctx.clientCapabilities);
    if (source?.kind === 'builtin' && flow.builtin === undefined) {
      options.logger.warn(`${flow.tool}: the model plan names 'builtin', and this tool has no built-in heuristic`);
      return toolError(`${flow.tool} has no built-in model. Ask the server operator to configure a model provider.`);
    }
    if (source !== undefined) continue;
    // A legacy client cannot declare per request: its refusal is a tool result, not -32021.
    if (ctx.hostUnavailable !== undefined) {
      return toolError(
        `${flow.tool} needs the client's model, but ${ctx.hostUnavailable}; ` +
          'no server-owned model is configured to answer instead.',
      );
    }
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { sampling: {} } },
      `${flow.tool} needs model input '${key}' from the client's model: declare the sampling capability`,
    );
  }
  const result = await runRounds(flow, args, ctx, options);
  return ctx.hostUnavailable === undefined
    ? result
    : withFallbackNote(
        result,
        fallbackModels(flow as FlowDefinition<unknown, FlowState>, flow.keys, ctx, options.models),
        ctx.hostUnavailable,
      );
}

/**
 * The server-owned models that answered in place of the host's because `ctx.hostUnavailable`
 * (legacy only): the result says so.
 */
function fallbackModels(
  flow: FlowDefinition<unknown, FlowState>,
  keys: readonly string[],
  ctx: ToolContext,
  models: ModelPlan,
): string[] {
  const withSampling = { ...ctx.clientCapabilities, sampling: {} };
  const names = keys.flatMap((key) => {
    const used = models.sourceFor(key, ctx.clientCapabilities);
    const model = used === undefined ? undefined : serverModel(used, flow);
    return models.sourceFor(key, withSampling)?.kind === 'host' && model !== undefined ? [model.name] : [];
  });
  return [...new Set(names)];
}

function withFallbackNote(
  result: CallToolResult | InputRequiredResult,
  names: readonly string[],
  reason: string,
): CallToolResult | InputRequiredResult {
  if (names.length === 0 || !('content' in result) || !Array.isArray(result.content)) return result;
  const note = `The server's own model (${names.join(', ')}) answered in place of the client's: ${reason}.`;
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}

async function runRounds<Args, State extends FlowState>(
  flow: FlowDefinition<Args, State>,
  args: Args,
  ctx: ToolContext,
  options: EngineOptions,
): Promise<CallToolResult | InputRequiredResult> {
  const target: RoundTarget = { method: 'tools/call', name: flow.tool, args };
  const rounds = {
    codec: options.codec,
    logger: options.logger,
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
  };
  const opened = openRound<FlowRoundState<State>>(ctx, target, rounds, () => ({ f: flow.initial(args) }));
  const meter = createUsageMeter({
    budget: options.models.budget ?? DEFAULT_MODEL_BUDGET,
    logger: options.logger,
    ...(opened.state.u !== undefined && { start: opened.state.u }),
    ...(options.now !== undefined && { now: options.now }),
  });
  let state = opened.state.f;
  let responses = opened.responses;
  for (;;) {
    const step = flow.step(state);
    const source = options.models.sourceFor(step.key, ctx.clientCapabilities);
    if (source === undefined) throw new Error(`no model source for ${step.key}`); // checked above
    let answer: CreateMessageResult | undefined;
    const raw = responses[step.key];
    if (raw !== undefined) answer = readSamplingResult(step.key, raw);
    responses = {};

    if (answer === undefined) {
      const prepared = await step.prepare(args, state, ctx.signal);
      if ('done' in prepared) return prepared.done;
      state = prepared.state ?? state;
      if (source.kind === 'host') {
        const usage = meter.totals();
        const asked = askForInput<FlowRoundState<State>>(
          ctx,
          target,
          rounds,
          { f: state, ...(usage.calls > 0 && { u: usage }) },
          opened.round,
          { [step.key]: inputRequired.createMessage(prepared.params) },
        );
        return asked.kind === 'asked' ? asked.result : toolError(asked.message);
      }
      let outcome: StepOutcome<State>;
      try {
        outcome = await runServerModelStep({
          tool: flow.tool,
          step,
          model: serverModel(source, flow as FlowDefinition<unknown, FlowState>) as CompletionModel, // checked in runFlow
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
      throw new InputResponseError(error.key, error.message);
    }
  }
}
