/**
 * What one `summarize_repo` call runs, apart from the kit that runs it (src/app/summarizeRepoRun.ts): the options,
 * the flow of the call's mode, what a repository failure tells the client, and the served root's warm-up survey.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

import { ModelInputError } from '../../errors.js';
import { openRepository, sharedSurveyCache } from '../../repo/index.js';
import type { ToolContext } from '../tool.js';
import { createSummarizeRepoFlow } from './flow.js';
import { createExploreFlow } from './explore/flow.js';
import { DEFAULT_EXPLORE_BOUNDS, resolveBounds, type ExploreBounds } from './explore/bounds.js';
import type { FlowDefinition, FlowState } from '../flow.js';
import { DEFAULT_MODEL_BUDGET } from '../../models/usage.js';
import type { SummarizeRepoArgs } from './schema.js';
import { TOOL_NAME } from './schema.js';
import type { Logger } from '../../logger.js';
import type { CompletionModel } from '../../models/modelSource.js';
import type { ModelPlan } from '../../models/sources.js';
import type { RepositoryOptions, SurveyCache } from '../../repo/index.js';
import { resolveBudgets, type SummarizeBudgets } from './prompts.js';

export interface SummarizeRepoToolOptions {
  root: string;
  models: ModelPlan;
  logger: Logger;
  maxRounds?: number;
  repository?: RepositoryOptions;
  /** Pick prompt bytes, summary read budgets, final text tokens (defaults in prompts.ts). */
  budgets?: Partial<SummarizeBudgets>;
  /**
   * Surveys kept between calls while nothing in the tree changes (a repeated first round skips the listing).
   * Default: the process's shared cache; `false` surveys afresh every time.
   */
  surveyCache?: SurveyCache | false;
  /** Bounds of explore mode (tool calls, rounds, bytes, wall time); defaults in explore/bounds.ts. */
  explore?: Partial<ExploreBounds>;
  /**
   * False: pick mode's results list the files read without their token counts, and the encoder loads only if a token
   * budget needs an exact count (the main job sets it when it prints the summary alone). Default true.
   */
  fileTokens?: boolean;
}

/**
 * The exploration's bounds for this call: the configured ones, with the rounds kept within the MRTR round cap, the
 * server-owned model's calls per tool call and, on 2025-11-25, the live samples per call.
 */
function exploreBounds(options: SummarizeRepoToolOptions, ctx: ToolContext): Partial<ExploreBounds> {
  const rounds = Math.min(
    options.explore?.rounds ?? DEFAULT_EXPLORE_BOUNDS.rounds,
    options.maxRounds ?? Number.POSITIVE_INFINITY,
    options.models.budget?.maxCalls ?? DEFAULT_MODEL_BUDGET.maxCalls,
    ctx.maxSamples ?? Number.POSITIVE_INFINITY,
  );
  return { ...options.explore, rounds: Math.max(1, rounds) };
}

/** The MRTR round cap of this call: the configured one, or explore mode's rounds bound (pick mode: the kit's). */
export function roundCapOf(
  options: SummarizeRepoToolOptions,
  args: SummarizeRepoArgs,
  ctx: ToolContext,
): number | undefined {
  if (options.maxRounds !== undefined || args.mode !== 'explore') return options.maxRounds;
  return resolveBounds(exploreBounds(options, ctx)).rounds;
}

/**
 * The flow of this call's mode (pick or explore), reading the served root under the call's signal, with `builtin` as
 * its built-in model (the model tool's own, app/summarizeRepoRun.ts).
 */
export function summarizeFlowFor(
  options: SummarizeRepoToolOptions,
  args: SummarizeRepoArgs,
  ctx: ToolContext,
  builtin: CompletionModel,
): FlowDefinition<SummarizeRepoArgs, FlowState> {
  const cache = options.surveyCache === false ? undefined : (options.surveyCache ?? sharedSurveyCache());
  // The call's signal (client cancellation or disconnect) stops the listing, git, the inspection and the reads.
  const repository = { ...(cache !== undefined && { cache }), ...options.repository, signal: ctx.signal };
  const openRepo = () => openRepository(options.root, repository);
  const flow =
    args.mode === 'explore'
      ? createExploreFlow({
          openRepo,
          ...(options.budgets !== undefined && { budgets: options.budgets }),
          bounds: exploreBounds(options, ctx),
          builtin,
        })
      : createSummarizeRepoFlow(openRepo, options.budgets, {
          ...(options.fileTokens === false && { fileTokens: false }),
          builtin,
        });
  return flow as FlowDefinition<SummarizeRepoArgs, FlowState>;
}

/** The tool's answer to a repository failure (a bad `path`, an unreadable root); undefined for other errors. */
export function repoFailureResult(error: unknown, logger: Logger): CallToolResult | undefined {
  if (error instanceof ModelInputError && error.code === 'path_outside_root') {
    return {
      content: [{ type: 'text', text: `${error.message}. Pass 'path' as a sub-directory of the served root.` }],
      isError: true,
    };
  }
  if (error instanceof ModelInputError && (error.code === 'root_invalid' || error.code === 'repo_unreadable')) {
    // The message names a host path: it goes to the operator's log, not to the client.
    logger.warn(`${TOOL_NAME}: ${error.message}`, 'repo_unreadable');
    return {
      content: [{ type: 'text', text: 'The served repository is not readable right now. Ask the server operator.' }],
      isError: true,
    };
  }
  return undefined;
}

/**
 * The served root's warm-up survey is made a second time (to be kept) only if the first took less than this, or
 * listed at most {@link WARM_SURVEY_REPEAT_PATHS} paths (the first survey runs the reader's code for the first time:
 * on a loaded machine a small tree's may take longer than this).
 */
export const WARM_SURVEY_REPEAT_MS = 500;
export const WARM_SURVEY_REPEAT_PATHS = 1000;

/**
 * The survey a first `summarize_repo` call on the whole served root begins with, made ahead of it into the process's
 * survey cache (the server's warm-up, app/warmUp.ts), with the tool's own repository options and pick budget so that
 * the call finds it. The cache keeps a root's survey from its second one on (the first arms the watch on the tree), so
 * a second is made when the first was quick (under {@link WARM_SURVEY_REPEAT_MS}) or the tree small: a large tree is
 * surveyed once at most. Bounded like any call's surveys (the cache's caps).
 *
 * `signal` (a tool call arriving) stops the first survey, which the call could not use (the watch was not armed
 * before it: the call surveys afresh) — but not the second: begun on a fully watched tree, it is what a call
 * arriving meanwhile joins (surveyCache.ts) instead of making the same survey again. The second waits for the watch
 * to be complete, so that it is kept. True when the second survey was made (the tree's survey is now kept, unless
 * the tree changed meanwhile or cannot be watched).
 */
export async function warmServedSurvey(
  options: Pick<SummarizeRepoToolOptions, 'root' | 'repository' | 'budgets'>,
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted) return false;
  const open = (stop?: AbortSignal) =>
    openRepository(options.root, { cache: sharedSurveyCache(), ...options.repository, ...(stop && { signal: stop }) });
  const candidateBytes = resolveBudgets(options.budgets).pickPromptBytes;
  const started = performance.now();
  const first = await (await open(signal)).survey(undefined, { candidateBytes });
  const quick = performance.now() - started < WARM_SURVEY_REPEAT_MS || first.total <= WARM_SURVEY_REPEAT_PATHS;
  if (signal.aborted || !quick) return false;
  await (await open()).survey(undefined, { candidateBytes, whenWatched: true });
  return true;
}
