/**
 * `summarize_repo` on the kit: a model tool (`defineModelTool`) whose `run` runs the flow of the call's mode (pick
 * or explore, src/flows/summarizeRepo/) on the kit's journal and rounds (kit/flowOnKit.ts), with summarize's
 * heuristic as its built-in model. Around it, what the tool has always answered before any work — a step no source
 * can serve (-32021, or an `isError` result on 2025-11-25, with the once-per-client log line), a flow with tools
 * and a model without — and the note when a server-side model answered in place of a host that could not.
 * Loaded at the first call (summarizeRepoTool.ts).
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';

import { refuseUpFront, withHostFallbackNote, type FlowEvents, type SealedFlow } from '../flows/engine.js';
import type { FlowDefinition, FlowState } from '../flows/flow.js';
import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import {
  repoFailureResult,
  roundCapOf,
  summarizeFlowFor,
  type SummarizeRepoToolOptions,
} from '../flows/summarizeRepo/run.js';
import { EXPLORE_KEY, PICK_KEY, SUMMARY_KEY, type SummarizeRepoArgs } from '../flows/summarizeRepo/schema.js';
import { samplingMissingNotice, SUMMARIZE_REPO_DESCRIPTOR } from '../flows/summarizeRepo/tool.js';
import type { ToolContext } from '../flows/tool.js';
import type { CompletionModel } from '../models/modelSource.js';
import { wireRequest } from '../kit/answers.js';
import { flowCallOf, runFlowOnKit } from '../kit/flowOnKit.js';
import { createModelKit, type ModelKit } from '../kit/kit.js';
import { defineModelTool, type BuiltinAnswer, type BuiltinModel, type ModelTool } from '../kit/modelTool.js';
import { runModelTool } from '../kit/runModelTool.js';
import type { SealedRound } from '../flows/inputRounds.js';
import type { StateCodec } from '../state/index.js';
import { createMemoryStore, type SharedStore } from '../state/stores/index.js';

export interface SummarizeRepoOptions extends SummarizeRepoToolOptions {
  /** The request-state codec of the kit the tool makes (without `kit`; default: one with an ephemeral key). */
  codec?: StateCodec<SealedFlow<unknown>>;
  /** The single-use check of the kit the tool makes (without `kit`; default: one in this process). */
  store?: Pick<SharedStore, 'consumeOnce'> | SharedStore;
  /** Rounds, rejections and model calls of the kit the tool makes (without `kit`). */
  events?: FlowEvents;
  /**
   * The kit the tool runs on (model plan, codec, store, round cap, events): a server's, shared with its other model
   * tools. Without it the tool makes one from these options.
   */
  kit?: ModelKit;
}

/** Summarize's heuristic as the model tool's built-in model of each step: the model its flows run for `builtin`. */
function builtinSteps(model: CompletionModel): Record<string, BuiltinModel> {
  // Explore mode's answers may call tools (tools in sampling): content beyond the kit's text-only built-in answer.
  const answer: BuiltinModel = async (request, ctx) =>
    (await model.complete({ key: ctx.step, params: wireRequest(request), signal: ctx.signal })) as BuiltinAnswer;
  return { [PICK_KEY]: answer, [SUMMARY_KEY]: answer, [EXPLORE_KEY]: answer };
}

/** The model tool of one set of options (the server's, or a caller's). */
export function summarizeRepoModelTool(options: SummarizeRepoOptions): ModelTool {
  // The result schema is published by the served descriptor (summarizeRepoTool.ts) and met by the flows' results
  // (their tests parse it): not given here, the kit does not parse every summary again.
  const { output: _published, ...descriptor } = SUMMARIZE_REPO_DESCRIPTOR;
  const onSamplingMissing = samplingMissingNotice(options.logger, options.models.spec);
  const heuristic = createBuiltinModel();
  return defineModelTool({
    ...descriptor,
    steps: {
      [PICK_KEY]: { description: 'Picks the most representative files from a ranked candidate list.' },
      [SUMMARY_KEY]: { description: 'Summarizes the files read for the audience.' },
      [EXPLORE_KEY]: { description: 'Explore mode: walks the repository with read-only tools, then summarizes.' },
    },
    builtin: builtinSteps(heuristic),
    task: 'optional',
    async run(args, context) {
      const { toolContext: ctx, kit } = flowCallOf(context, SUMMARIZE_REPO_DESCRIPTOR.name);
      const flow = summarizeFlowFor(options, args, ctx, heuristic);
      const anyFlow = flow as FlowDefinition<unknown, FlowState>;
      // Decided before any repository work, on every round, as the flow engine decides it.
      const refused = refuseUpFront(anyFlow, ctx, {
        models: kit.models,
        logger: options.logger,
        onSamplingMissing: (client, revision) => onSamplingMissing(client, ctx.principal, revision),
      });
      if (refused !== undefined) return refused;
      try {
        const result = await runFlowOnKit(flow, args, context);
        return withHostFallbackNote(anyFlow, ctx, kit.models, result) as CallToolResult;
      } catch (error) {
        const failed = repoFailureResult(error, options.logger);
        if (failed === undefined) throw error;
        return failed;
      }
    },
  });
}

/**
 * The store a summarize call's kit uses: the one given when it keeps values (spilled journal entries), otherwise one
 * in this process beside the given single-use check.
 */
function storeOf(given: SummarizeRepoOptions['store']): SharedStore {
  if (given === undefined) return createMemoryStore();
  if ('keep' in given && 'recall' in given && 'kind' in given) return given as SharedStore;
  return { ...createMemoryStore(), consumeOnce: (id, expiresAtMs) => given.consumeOnce(id, expiresAtMs) };
}

/** The kit of options that name none (a caller of the tool outside a model-input server): made from the options. */
function kitFrom(options: SummarizeRepoOptions): ModelKit {
  const made = createModelKit({
    models: options.models,
    logger: options.logger,
    store: storeOf(options.store),
    root: options.root,
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.events !== undefined && { events: options.events }),
  });
  return options.codec === undefined
    ? made
    : Object.freeze({ ...made, codec: options.codec as StateCodec<SealedRound<unknown>> });
}

/** Per options object: its model tool and kit, made once. */
const prepared = new WeakMap<SummarizeRepoOptions, { tool: ModelTool; kit: ModelKit }>();

/** One call of `summarize_repo` on the options' kit (the server's, or one made from the options). */
export async function runSummarizeRepo(
  options: SummarizeRepoOptions,
  args: SummarizeRepoArgs,
  ctx: ToolContext,
): Promise<CallToolResult | InputRequiredResult> {
  let made = prepared.get(options);
  if (made === undefined) {
    made = { tool: summarizeRepoModelTool(options), kit: options.kit ?? kitFrom(options) };
    prepared.set(options, made);
  }
  const maxRounds = roundCapOf(options, args, ctx);
  return runModelTool(made.tool, made.kit, args, ctx, { ...(maxRounds !== undefined && { maxRounds }) });
}
