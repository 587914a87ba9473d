/**
 * The flow engine: runs a `FlowDefinition` for one `tools/call`, across MRTR rounds when
 * a step's model is the host's, inline when it is server-owned. Its loop (`advanceFlow`) is shared
 * with the kit, which serves `summarize_repo`'s flows from a checkpoint in its journal
 * (kit/flowOnKit.ts); `runFlow` carries the flow's state in a sealed state of its own.
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
 * An answer from the host's model that the step cannot use is the client's input gone wrong: when the
 * model plan names a server-side model after `host` (`host,builtin`, `host,openai:M`), that model
 * answers the step instead and the result says so in its notes; otherwise it is -32602
 * (`UnusableAnswerError`, the input key and the reason in `data`). The same on both revisions.
 *
 * Legacy (2025-11-25) calls may carry `hostUnavailable` (sampling not declared at `initialize`, or
 * refused during the call): then a step without a source is an `isError` result naming the reason,
 * and a step served by a server-owned model listed after `host` is noted in the result.
 */
import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  type CallToolResult,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { CompletionModel } from '../models/modelSource.js';
import { isModelProviderError } from '../models/providerError.js';
import type { ModelPlan, ModelSource } from '../models/sources.js';
import {
  createUsageMeter,
  DEFAULT_MODEL_BUDGET,
  type ModelCallRecord,
  type UsageMeter,
  type UsageTotals,
} from '../models/usage.js';
import type { ToolContext } from './tool.js';
import type { StateCodec } from '../state/index.js';
import type { SharedStore } from '../state/stores/index.js';
import type { FlowDefinition, FlowState, StepOutcome } from './flow.js';
import { FlowAnswerError } from './flowAnswerError.js';
import { askForInput, openRound, type RoundEvents, type RoundTarget, type SealedRound } from './inputRounds.js';
import { readSamplingResult } from './inputResponses.js';
import { runServerModelStep, serverFailureResult } from './serverModelStep.js';
import { capabilitiesFor, serverModel, toolRefusal } from './toolSources.js';
import { UnusableAnswerError } from './unusableAnswerError.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';

export { DEFAULT_MAX_ROUNDS } from './inputRounds.js';

/** What the engine carries between rounds, inside the round machinery's sealed state. */
export interface FlowRoundState<State> {
  /** The flow's own state. */
  f: State;
  /** Server-owned model usage of earlier rounds (only when some step already used one). */
  u?: UsageTotals;
  /** Notes for the final result made in earlier rounds (a server-side model answered in the host's place). */
  n?: string[];
}

/** The sealed `requestState` payload of a flow. */
export type SealedFlow<State> = SealedRound<FlowRoundState<State>>;

/** What the engine reports (metrics): the round machinery's events and every model call. */
export interface FlowEvents extends RoundEvents {
  /** A server-owned model call ended. */
  serverModelCall?(call: ModelCallRecord): void;
  /** The host's model answered an input request (its tokens are the client's business). */
  hostModelAnswer?(key: string): void;
}

export interface EngineOptions {
  codec: StateCodec<SealedFlow<unknown>>;
  models: ModelPlan;
  logger: Logger;
  maxRounds?: number;
  /** Single-use request state (see inputRounds.ts); without it state is single-flow only. */
  store?: Pick<SharedStore, 'consumeOnce'>;
  events?: FlowEvents;
  /** The usage meter's clock (latency, the model deadline); injected in tests. */
  now?: () => number;
  /**
   * Called when a request is refused because it did not declare sampling and no server-side model can
   * answer — with -32021 on 2026-07-28, with an `isError` result on 2025-11-25 (sampling not declared at
   * `initialize`) — with the client's self-reported name; the caller logs it once per client.
   */
  onSamplingMissing?: (client: string, revision: SamplingMissingRevision) => void;
}

/** Which revision's answer a client without sampling got: -32021, or (2025-11-25) an `isError` result. */
export type SamplingMissingRevision = typeof MODERN_REVISION | typeof LEGACY_REVISION;

/** What the user of a client without sampling can do about it (both revisions). */
const SAMPLING_MISSING_ADVICE =
  'use a client that supports sampling (declares the sampling capability), or ask the server operator to add a ' +
  'server-side model.';

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
  const refused = refuseUpFront(flow as FlowDefinition<unknown, FlowState>, ctx, options);
  if (refused !== undefined) return refused;
  return withHostFallbackNote(
    flow as FlowDefinition<unknown, FlowState>,
    ctx,
    options.models,
    await runRounds(flow, args, ctx, options),
  );
}

/**
 * What is decided before any repository work or state minting: a step no source of the plan can serve under what
 * the request declared is an `isError` result (2025-11-25) or -32021 (thrown); a plan naming `builtin` for a flow
 * without one, or a flow with tools and a model without, is an `isError` result. Undefined: the flow may run.
 */
export function refuseUpFront(
  flow: FlowDefinition<unknown, FlowState>,
  ctx: ToolContext,
  options: Pick<EngineOptions, 'models' | 'logger' | 'onSamplingMissing'>,
): CallToolResult | undefined {
  const refused = toolRefusal(flow, ctx, options.models);
  if (refused !== undefined) return refused;
  const capabilities = capabilitiesFor(flow, ctx);
  for (const key of flow.keys) {
    const source = options.models.sourceFor(key, capabilities);
    if (source?.kind === 'builtin' && flow.builtin === undefined) {
      options.logger.warn(`${flow.tool}: the model plan names 'builtin', and this tool has no built-in heuristic`);
      return toolError(`${flow.tool} has no built-in model. Ask the server operator to configure a model provider.`);
    }
    if (source !== undefined) continue;
    // A legacy client cannot declare per request: its refusal is a tool result, not -32021.
    if (ctx.hostUnavailable !== undefined) {
      if (ctx.samplingUndeclared !== true) {
        return toolError(
          `${flow.tool} needs the client's model, but ${ctx.hostUnavailable}; ` +
            'no server-owned model is configured to answer instead.',
        );
      }
      options.onSamplingMissing?.(ctx.clientName ?? 'unnamed client', LEGACY_REVISION);
      return toolError(
        `${flow.tool} needs the client's model, but ${ctx.hostUnavailable}, and this server has no model of its ` +
          `own configured: ${SAMPLING_MISSING_ADVICE}`,
      );
    }
    options.onSamplingMissing?.(ctx.clientName ?? 'unnamed client', MODERN_REVISION);
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { sampling: {} } },
      `${flow.tool} needs model input ('${key}') from the client's own model, and this server has no model of ` +
        `its own configured: ${SAMPLING_MISSING_ADVICE}`,
    );
  }
  return undefined;
}

/**
 * The result with a note when the host's model could not serve this request (not declared, or on 2025-11-25
 * refused) and a server-side model of the plan answered in its place.
 */
export function withHostFallbackNote(
  flow: FlowDefinition<unknown, FlowState>,
  ctx: ToolContext,
  models: ModelPlan,
  result: CallToolResult | InputRequiredResult,
): CallToolResult | InputRequiredResult {
  const unavailable = ctx.hostUnavailable ?? undeclaredSampling(flow, ctx);
  if (unavailable === undefined) return result;
  const names = fallbackModels(flow, flow.keys, ctx, models);
  if (names.length === 0) return result;
  const note = `The server's own model (${names.join(', ')}) answered in place of the client's: ${unavailable}.`;
  return withNotes(result, flow.notesField, [note]);
}

/**
 * Why the host's model cannot serve this request by what it declared — no `sampling`, or (a flow that offers
 * tools) no `sampling.tools` — or undefined when it can. Said in the notes when a later entry of the plan answers.
 */
function undeclaredSampling(flow: FlowDefinition<unknown, FlowState>, ctx: ToolContext): string | undefined {
  const where = ctx.maxSamples === undefined ? 'this request' : 'the client at initialize';
  if (ctx.clientCapabilities.sampling === undefined) return `${where} did not declare the sampling capability`;
  if (capabilitiesFor(flow, ctx).sampling === undefined) {
    return `${where} declared sampling without sampling.tools, which ${flow.tool} in this mode needs`;
  }
  return undefined;
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
    const used = models.sourceFor(key, capabilitiesFor(flow, ctx));
    const model = used === undefined ? undefined : serverModel(used, flow);
    return models.sourceFor(key, withSampling)?.kind === 'host' && model !== undefined ? [model.name] : [];
  });
  return [...new Set(names)];
}

/** The server-side source the plan names after `host` for `key`, if any (and if it can run). */
function fallbackSource(
  models: ModelPlan,
  flow: FlowDefinition<unknown, FlowState>,
  key: string,
  capabilities: ToolContext['clientCapabilities'],
): ModelSource | undefined {
  const { sampling: _host, ...withoutSampling } = capabilities;
  const source = models.sourceFor(key, withoutSampling);
  const model = source === undefined ? undefined : serverModel(source, flow);
  // A flow that offers tools can only fall back on a model that takes them.
  if (model === undefined || (flow.usesTools === true && model.usesTools !== true)) return undefined;
  return source;
}

/**
 * The server-side source the plan lists after `failed` for `key` (a provider that failed): the next one that can run
 * this flow, if any. A plan made by hand without preference lists names none.
 */
function nextServerSource(
  models: ModelPlan,
  flow: FlowDefinition<unknown, FlowState>,
  key: string,
  failed: ModelSource,
): ModelSource | undefined {
  const list = models.preferences?.(flow.tool, key) ?? [];
  const at = list.indexOf(failed);
  if (at < 0) return undefined;
  return list.slice(at + 1).find((source) => {
    const model = serverModel(source, flow);
    return model !== undefined && (flow.usesTools !== true || model.usesTools === true);
  });
}

/**
 * A result with the engine's notes: each as a `Note:` text block, and appended to the flow's
 * `notesField` of a successful result's `structuredContent`.
 */
function withNotes(
  result: CallToolResult | InputRequiredResult,
  field: string | undefined,
  notes: readonly string[],
): CallToolResult | InputRequiredResult {
  if (notes.length === 0 || !('content' in result) || !Array.isArray(result.content)) return result;
  const noted: CallToolResult = {
    ...result,
    content: [...result.content, ...notes.map((note) => ({ type: 'text' as const, text: `Note: ${note}` }))],
  };
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (field !== undefined && result.isError !== true && structured !== undefined && structured !== null) {
    const earlier = Array.isArray(structured[field]) ? (structured[field] as unknown[]) : [];
    noted.structuredContent = { ...structured, [field]: [...earlier, ...notes] };
  }
  return noted;
}

async function runRounds<Args, State extends FlowState>(
  flow: FlowDefinition<Args, State>,
  args: Args,
  ctx: ToolContext,
  options: EngineOptions,
): Promise<CallToolResult | InputRequiredResult> {
  const target: RoundTarget = { method: 'tools/call', name: flow.tool, args };
  const maxRounds = options.maxRounds ?? flow.maxRounds;
  const rounds = {
    codec: options.codec,
    logger: options.logger,
    // Every round of a flow carries sealed state.
    requireState: true,
    ...(maxRounds !== undefined && { maxRounds }),
    ...(options.store !== undefined && { store: options.store }),
    ...(options.events !== undefined && { events: options.events }),
  };
  const opened = await openRound<FlowRoundState<State>>(ctx, target, rounds, () => ({ f: flow.initial(args) }));
  const onCall = (call: ModelCallRecord): void => {
    options.events?.serverModelCall?.(call);
    // The principal's daily budget is charged per model call, so a failing call still pays what it spent.
    if (call.tokens > 0) ctx.chargeModelTokens?.(call.tokens);
  };
  const meter = createUsageMeter({
    budget: options.models.budget ?? DEFAULT_MODEL_BUDGET,
    logger: options.logger,
    onCall,
    ...(opened.state.u !== undefined && { start: opened.state.u }),
    ...(options.now !== undefined && { now: options.now }),
  });
  return advanceFlow({
    flow,
    args,
    ctx,
    models: options.models,
    logger: options.logger,
    ...(options.events !== undefined && { events: options.events }),
    meter,
    state: opened.state.f,
    responses: opened.responses,
    notes: opened.state.n ?? [],
    askHost: async (key, params, resume) => {
      const usage = meter.totals();
      const asked = askForInput<FlowRoundState<State>>(
        ctx,
        target,
        rounds,
        { f: resume.state, ...(usage.calls > 0 && { u: usage }), ...(resume.notes.length > 0 && { n: resume.notes }) },
        opened.round,
        { [key]: inputRequired.createMessage(params) },
      );
      return asked.kind === 'asked' ? asked.result : toolError(asked.message);
    },
  });
}

/** One round of a flow, wherever its state travels between rounds (the engine's sealed state, the kit's journal). */
export interface FlowAdvance<Args, State extends FlowState> {
  flow: FlowDefinition<Args, State>;
  args: Args;
  ctx: ToolContext;
  models: ModelPlan;
  logger: Logger;
  events?: FlowEvents;
  /** The call's usage meter (started from earlier rounds' usage). */
  meter: UsageMeter;
  /** Where this round starts: the initial state, or the state sealed with the question the retry answers. */
  state: State;
  /** This retry's answers; only the first step's key is read (the question asked last round). */
  responses: Record<string, unknown>;
  /** Notes made in earlier rounds. */
  notes: readonly string[];
  /** Told which source answered each step (the host's answer as it arrives; a server-side model once it is done). */
  answered?(key: string, source: ModelSource, model: string): void;
  /** Ends the round with a question for the host, carrying what the next round resumes from. */
  askHost(
    key: string,
    params: CreateMessageRequestParams,
    resume: { state: State; notes: string[] },
  ): Promise<CallToolResult | InputRequiredResult>;
}

/**
 * Advances a flow from its state until it completes or needs the host's model: a server-side model answers in place
 * (with its repair and fallback), a host's answer is accepted, or — unusable — answered by the server-side model the
 * plan names after `host`, or refused (-32602).
 */
export async function advanceFlow<Args, State extends FlowState>(
  run: FlowAdvance<Args, State>,
): Promise<CallToolResult | InputRequiredResult> {
  const { flow, args, ctx, meter } = run;
  const capabilities = capabilitiesFor(flow as FlowDefinition<unknown, FlowState>, ctx);
  let state = run.state;
  let responses = run.responses;
  const notes = [...run.notes];
  /** Steps whose host answer was unusable in this request: a server-side model answers them. */
  const replaced = new Map<string, ModelSource>();
  const finish = (result: CallToolResult): CallToolResult =>
    withNotes(withUsage(result, flow.usageField, meter), flow.notesField, notes) as CallToolResult;
  for (;;) {
    const step = flow.step(state);
    const source = replaced.get(step.key) ?? run.models.sourceFor(step.key, capabilities);
    if (source === undefined) throw new Error(`no model source for ${step.key}`); // refused up front
    let answer: CreateMessageResult | undefined;
    const raw = responses[step.key];
    if (raw !== undefined) {
      answer = readSamplingResult(step.key, raw);
      run.events?.hostModelAnswer?.(step.key);
      run.answered?.(step.key, { kind: 'host' }, 'host');
    }
    responses = {};

    if (answer === undefined) {
      const prepared = await step.prepare(args, state, ctx.signal);
      if ('done' in prepared) return withNotes(prepared.done, flow.notesField, notes) as CallToolResult;
      state = prepared.state ?? state;
      if (source.kind === 'host') return run.askHost(step.key, prepared.params, { state, notes });
      const model = serverModel(source, flow as FlowDefinition<unknown, FlowState>) as CompletionModel; // refused up front
      let outcome: StepOutcome<State>;
      try {
        outcome = await runServerModelStep({
          tool: flow.tool,
          step,
          model,
          args,
          state,
          params: prepared.params,
          meter,
          logger: run.logger,
          signal: ctx.signal,
        });
      } catch (error) {
        // A provider that fails is followed by the next server-side source of the step's list, when there is one.
        const failure = isModelProviderError(error) && !ctx.signal.aborted ? error : undefined;
        const next =
          failure && nextServerSource(run.models, flow as FlowDefinition<unknown, FlowState>, step.key, source);
        if (failure !== undefined && next !== undefined) {
          const name = serverModel(next, flow as FlowDefinition<unknown, FlowState>)?.name ?? 'builtin';
          run.logger.info(
            `${flow.tool}: ${step.key}: ${model.name} failed (${failure.message}); ${name} answers instead`,
          );
          notes.push(
            `The server's model ${model.name} failed for '${step.key}' (${failure.message}); ${name} answered that ` +
              'step instead.',
          );
          replaced.set(step.key, next);
          continue;
        }
        const failed = serverFailureResult(error);
        if (failed === undefined) throw error;
        return failed;
      }
      run.answered?.(step.key, source, model.name);
      if ('done' in outcome) return finish(outcome.done);
      state = outcome.next;
      continue;
    }

    // The host's answer is the client's input: never repaired. An unusable one is answered by the
    // server-side model the plan names after `host`, or is invalid params.
    try {
      const outcome = await step.accept(args, state, answer, ctx.signal);
      if ('done' in outcome) return finish(outcome.done);
      state = outcome.next;
    } catch (error) {
      if (!(error instanceof FlowAnswerError)) throw error;
      const fallback = fallbackSource(run.models, flow as FlowDefinition<unknown, FlowState>, step.key, capabilities);
      if (fallback === undefined) throw new UnusableAnswerError(error.key, error.message);
      const name = serverModel(fallback, flow as FlowDefinition<unknown, FlowState>)?.name ?? 'builtin';
      run.logger.info(
        `${flow.tool}: ${error.key}: the client's answer is unusable (${error.message}); ${name} answers instead`,
      );
      notes.push(
        `The client's model gave an unusable answer for '${error.key}' (${error.message}); ` +
          `the server's own model (${name}) answered that step instead.`,
      );
      replaced.set(step.key, fallback);
    }
  }
}
