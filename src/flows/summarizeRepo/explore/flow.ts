/**
 * `summarize_repo` in explore mode: a bounded tool loop on the flow engine (SEP-1577: the server runs it). One
 * step, asked again every round under the input key `explore`: `prepare` rebuilds the conversation from the call
 * log in the state (conversation.ts) and offers the tools (`toolChoice: auto`; `none` once a bound is reached);
 * `accept` logs the model's `tool_use` calls (turn.ts) or, when it answers with text, finishes with its summary
 * (result.ts). The engine runs the same step inline for a server-owned model and across MRTR rounds for the host's;
 * a legacy client gets the same requests live.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../../../models/modelSource.js';
import { createExplorer, type Explorer } from '../../../repo/explore/index.js';
import type { Repository } from '../../../repo/index.js';
import { answerText, type FlowDefinition, type ModelStep } from '../../flow.js';
import { FlowAnswerError } from '../../flowAnswerError.js';
import { createBuiltinModel } from '../builtin/model.js';
import {
  buildSummaryRequest,
  capResultText,
  readBudgetOf,
  resolveBudgets,
  SUMMARY_MAX_TOKENS,
  type SummarizeBudgets,
} from '../prompts.js';
import { redactFiles } from '../redaction.js';
import { escapeControls } from '../../../protocol/sanitize.js';
import { EXPLORE_KEY, MAX_MODEL_NAME_CHARS, SUMMARY_KEY, TOOL_NAME, type SummarizeRepoArgs } from '../schema.js';
import { checkSummaryText } from '../summaryAnswer.js';
import { PER_CALL_BYTES, reachedBound, resolveBounds, type ExploreBounds } from './bounds.js';
import type { ExploreState } from './callLog.js';
import { rebuildConversation, type Rebuilt } from './conversation.js';
import { audienceOf, explorePrompt, exploreSystemPrompt, repoNameOf, type PromptContext } from './prompt.js';
import { exploreResult } from './result.js';
import { EXPLORE_TOOLS } from './tools.js';
import { readTurn, toolUses } from './turn.js';

export interface ExploreFlowOptions {
  /** Called lazily (once per flow), so capability checks run before any repository work. */
  openRepo: () => Promise<Repository>;
  budgets?: Partial<SummarizeBudgets>;
  bounds?: Partial<ExploreBounds>;
  /** The wall-time bound's clock; injected in tests. */
  now?: () => number;
  /** The flow's built-in model, which also writes the fallback summary (default: summarize's heuristic). */
  builtin?: CompletionModel;
}

/** What every round of one call needs from the repository: computed once per flow instance (per request). */
interface ExploreContext extends PromptContext {
  repo: Repository;
  explorer: Explorer;
  /** The opening user message. */
  prompt: string;
}

export function createExploreFlow(options: ExploreFlowOptions): FlowDefinition<SummarizeRepoArgs, ExploreState> {
  const budgets = resolveBudgets(options.budgets);
  const bounds = resolveBounds(options.bounds);
  const now = options.now ?? Date.now;
  const builtin = options.builtin ?? createBuiltinModel();
  let contextPromise: Promise<ExploreContext> | undefined;
  const contextOf = (args: SummarizeRepoArgs): Promise<ExploreContext> =>
    (contextPromise ??= (async () => {
      const repo = await options.openRepo();
      // The facts and the listing size; no candidate is inspected (candidateBytes 0).
      const survey = await repo.survey(args.path, { candidateBytes: 0 });
      const shown = { root: repo.root, base: survey.base, facts: survey.facts, listed: survey.total };
      return {
        ...shown,
        repo,
        explorer: createExplorer(repo, { base: survey.base }),
        prompt: explorePrompt(shown, args, bounds),
      };
    })());
  const rebuild = (context: ExploreContext, state: ExploreState): Promise<Rebuilt> =>
    rebuildConversation({
      explorer: context.explorer,
      state,
      prompt: context.prompt,
      base: context.base,
      perCallBytes: PER_CALL_BYTES,
      totalBytes: bounds.bytes,
      toolCallBound: bounds.toolCalls,
    });

  /** The final result from the model's text answer (or the built-in summary's, with `fallback` saying why). */
  async function finish(args: SummarizeRepoArgs, state: ExploreState, answer: CreateMessageResult, fallback?: string) {
    const checked = checkSummaryText(answerText(answer));
    if (checked.kind === 'unusable') throw new FlowAnswerError(EXPLORE_KEY, checked.reason);
    const context = await contextOf(args);
    const rebuilt = await rebuild(context, state);
    const { text, cut } = await capResultText(checked.text, budgets.resultTokens);
    const files = rebuilt.files.length;
    const notes = [
      ...(fallback === undefined
        ? []
        : [
            `The model's answer could not be used (${fallback}); the built-in heuristic summarized the ` +
              `${files} file${files === 1 ? '' : 's'} it had read.`,
          ]),
      ...(cut ? [`The summary was cut to about ${budgets.resultTokens} tokens (the result budget).`] : []),
    ];
    return exploreResult({
      args,
      state,
      rebuilt,
      text,
      model: escapeControls(answer.model, MAX_MODEL_NAME_CHARS),
      listed: context.listed,
      facts: context.facts,
      bounds,
      notes,
    });
  }

  const explore: ModelStep<SummarizeRepoArgs, ExploreState> = {
    key: EXPLORE_KEY,
    async prepare(args, state) {
      const context = await contextOf(args);
      if (context.listed === 0) {
        return {
          done: {
            content: [
              {
                type: 'text',
                text: `No listed files under '${context.base || '.'}' (everything is ignored, binary or secret-bearing). Pass another path.`,
              },
            ],
            isError: true,
          },
        };
      }
      const rebuilt = await rebuild(context, state);
      const end = state.end ?? reachedBound(state, rebuilt, bounds, now());
      const params: CreateMessageRequestParams = {
        messages: rebuilt.messages,
        systemPrompt: exploreSystemPrompt(end, bounds),
        tools: EXPLORE_TOOLS,
        toolChoice: { mode: end === undefined ? 'auto' : 'none' },
        modelPreferences: { costPriority: 0.2, intelligencePriority: 0.8 },
        includeContext: 'none',
        maxTokens: SUMMARY_MAX_TOKENS,
      };
      return { params, state: end === undefined ? state : { ...state, end } };
    },
    async accept(args, state, answer) {
      if (toolUses(answer).length === 0) return { done: await finish(args, state, answer) };
      const context = await contextOf(args);
      return { next: { ...state, turns: [...state.turns, readTurn(state, answer, bounds, context.base)] } };
    },
    // Server-owned models only: one repair request, then the built-in summary of the files read so far.
    recover: {
      repairInstruction: (_args, error) =>
        `That answer could not be used: ${error.message}. Answer again: tool calls (each with its own id) while ` +
        'tools are offered, or your final summary as Markdown text.',
      async fallback(args, state, _params, reason) {
        const context = await contextOf(args);
        const rebuilt = await rebuild(context, state);
        const read = await context.repo.read(
          rebuilt.files.map((file) => file.path),
          readBudgetOf(budgets),
        );
        const shown = await redactFiles(read.files);
        const params = buildSummaryRequest({
          repoName: repoNameOf(context),
          audience: audienceOf(args),
          files: shown.files,
          ...(context.facts !== undefined && { facts: context.facts }),
        });
        // The built-in summary is text only.
        const answer = (await builtin.complete({ key: SUMMARY_KEY, params })) as CreateMessageResult;
        return { done: await finish(args, state, answer, reason) };
      },
    },
  };

  return {
    tool: TOOL_NAME,
    keys: [EXPLORE_KEY],
    initial: () => ({ phase: 'explore', turns: [], t0: now() }),
    step: () => explore,
    usageField: 'usage',
    notesField: 'notes',
    builtin,
    usesTools: true,
    maxRounds: bounds.rounds,
  };
}
