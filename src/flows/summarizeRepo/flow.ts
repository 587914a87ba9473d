/**
 * `summarize_repo` as a two-step flow: the model picks files from a ranked candidate list,
 * the server reads them safely, the model summarizes them. Written once; the engine runs it
 * against the host's model (MRTR) or a server-owned one.
 */
import { basename } from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';

import { createBuiltinModel } from './builtin/model.js';
import { choosePicks } from './builtin/pick.js';
import type { CandidateReader, ReadResult, RepoFacts, Repository, SkippedClass } from '../../repo/index.js';
import type { RankInput } from '../../repo/rank.js';
import type { CompletionModel } from '../../models/modelSource.js';
import type { FlowDefinition, ModelStep } from '../flow.js';
import { answerText } from '../flow.js';
import { FlowAnswerError } from '../flowAnswerError.js';
import { parsePickText, validatePick, type PickValidation } from './pickAnswer.js';
import { addRedactions, redactFiles, withRedaction, type RedactionState } from './redaction.js';
import { checkSummaryText } from './summaryAnswer.js';
import {
  buildPickRequest,
  buildSummaryRequest,
  capResultText,
  DEFAULT_BUDGETS,
  readBudgetOf,
  resolveBudgets,
  type SummarizeBudgets,
} from './prompts.js';
import {
  MAX_MODEL_NAME_CHARS,
  PICK_KEY,
  SUMMARY_KEY,
  TOOL_NAME,
  type SummarizeRepoArgs,
  type SummarizeRepoOutput,
} from './schema.js';
import { escapeControls } from '../../protocol/sanitize.js';

export const DEFAULT_AUDIENCE = 'developer';
export const READ_BUDGET = readBudgetOf(DEFAULT_BUDGETS);
/** Skipped-file examples carried in the sealed state are few and short: the token is capped. */
const STATE_EXAMPLES = 2;
const STATE_EXAMPLE_LENGTH = 100;

type FileInfo = SummarizeRepoOutput['files'][number];
/** The result before the engine adds `usage`. */
type FlowOutput = Omit<SummarizeRepoOutput, 'usage'>;

type PhaseState =
  | { phase: 'pick'; candidates?: { listed: number; total: number }; skipped?: SkippedClass[] }
  | {
      phase: 'summary';
      picked: string[];
      dropped: string[];
      candidates: { listed: number; total: number };
      skipped: SkippedClass[];
      files?: FileInfo[];
      /** Set when the built-in ranking picked the files: why the model's pick was not used. */
      fallback?: string;
    };
/** Both phases carry what was redacted so far (redaction.ts). */
export type SummarizeState = PhaseState & RedactionState;

function compactSkipped(classes: readonly SkippedClass[]): SkippedClass[] {
  return classes.map((entry) => ({
    reason: entry.reason,
    count: entry.count,
    examples: entry.examples
      .slice(0, STATE_EXAMPLES)
      .map((example) =>
        example.length > STATE_EXAMPLE_LENGTH ? `${example.slice(0, STATE_EXAMPLE_LENGTH)}…` : example,
      ),
  }));
}

function mergeSkipped(a: readonly SkippedClass[], b: readonly SkippedClass[]): SkippedClass[] {
  const merged = new Map<string, SkippedClass>();
  for (const entry of [...a, ...b]) {
    const existing = merged.get(entry.reason);
    merged.set(
      entry.reason,
      existing === undefined
        ? { ...entry, examples: [...entry.examples] }
        : {
            ...existing,
            count: existing.count + entry.count,
            examples: [...existing.examples, ...entry.examples].slice(0, 5),
          },
    );
  }
  return [...merged.values()].sort((x, y) => (x.reason < y.reason ? -1 : x.reason > y.reason ? 1 : 0));
}

function nothingToSummarize(path: string): { done: CallToolResult } {
  return {
    done: {
      content: [
        {
          type: 'text',
          text: `No readable text files under '${path || '.'}' (everything is ignored, binary, too large or a secret-bearing file). Pass another path.`,
        },
      ],
      isError: true,
    },
  };
}

/** The summary phase that follows a validated pick, carrying what the pick phase listed. */
function summaryPhase(
  state: Extract<SummarizeState, { phase: 'pick' }>,
  validation: PickValidation,
): Extract<SummarizeState, { phase: 'summary' }> {
  return {
    phase: 'summary',
    picked: validation.picked,
    dropped: validation.dropped,
    candidates: state.candidates ?? { listed: 0, total: 0 },
    skipped: state.skipped ?? [],
    ...(state.redacted !== undefined && { redacted: state.redacted }),
    ...(state.redactedMore !== undefined && { redactedMore: state.redactedMore }),
  };
}

/** How a flow reads, besides its budgets. */
export interface SummarizeFlowOptions {
  /**
   * False: the result's files carry no token counts, and texts are tokenized only where a token budget needs an
   * exact count (the main job's printed summary shows none). Default true.
   */
  fileTokens?: boolean;
  /** False exists for the benchmark's baseline only (bench/secretScan.ts): the tool, the server and the CLI never pass it. */
  redact?: boolean;
  /** The flow's built-in model (default: summarize's heuristic, `createBuiltinModel`). */
  builtin?: CompletionModel;
}

/** `openRepo` is called lazily (once), so capability checks run before any repository work. */
export function createSummarizeRepoFlow(
  openRepo: () => Promise<Repository>,
  budgetOverrides: Partial<SummarizeBudgets> = {},
  options: SummarizeFlowOptions = {},
): FlowDefinition<SummarizeRepoArgs, SummarizeState> {
  const redact = options.redact ?? true;
  const budgets = resolveBudgets(budgetOverrides);
  const readBudget = { ...readBudgetOf(budgets), ...(options.fileTokens === false && { fileTokens: false }) };
  let opened: Promise<Repository> | undefined;
  const repository = (): Promise<Repository> => (opened ??= openRepo());
  // The candidates the pick prompt listed, best first: the built-in ranking's fallback picks among them.
  let offered: RankInput[] | undefined;
  const repoName = (repo: Repository, args: SummarizeRepoArgs): string =>
    basename(args.path ? `${repo.root}/${args.path}` : repo.root);
  const audienceOf = (args: SummarizeRepoArgs): string => args.audience?.trim() || DEFAULT_AUDIENCE;
  // The facts are not carried in the sealed state (it stays small): a later round on a new flow instance
  // lists again (no inspection) and computes them anew; within one instance they are computed once.
  const factsByPath = new Map<string, Promise<RepoFacts | undefined>>();
  const factsOf = (args: SummarizeRepoArgs): Promise<RepoFacts | undefined> => {
    const key = args.path ?? '';
    let facts = factsByPath.get(key);
    if (facts === undefined) {
      facts = repository().then(async (repo) => (await repo.survey(args.path, { candidateBytes: 0 })).facts);
      factsByPath.set(key, facts);
    }
    return facts;
  };

  // What the pick's validation read, for the summary step prepared next from that very state object: the engine
  // passes it on within one call, and a state opened from a token in a later call is never found here.
  const readAheadOf = new WeakMap<SummarizeState, ReadResult>();
  const readAhead = (next: SummarizeState, reader: CandidateReader): SummarizeState => {
    readAheadOf.set(next, reader.result());
    return next;
  };

  const pick: ModelStep<SummarizeRepoArgs, SummarizeState> = {
    key: PICK_KEY,
    async prepare(args) {
      const repo = await repository();
      // Outline plus the best inspected candidates, within the pick prompt's byte budget at any repository size.
      const survey = await repo.survey(args.path, { candidateBytes: budgets.pickPromptBytes });
      factsByPath.set(args.path ?? '', Promise.resolve(survey.facts));
      if (survey.candidates.length === 0) return nothingToSummarize(survey.base);
      const { params, listed } = buildPickRequest({
        repoName: repoName(repo, args),
        audience: audienceOf(args),
        maxFiles: args.maxFiles,
        survey,
        budgetBytes: budgets.pickPromptBytes,
      });
      offered = survey.candidates.slice(0, listed);
      return {
        params,
        state: {
          phase: 'pick',
          candidates: { listed, total: survey.total },
          skipped: compactSkipped(survey.skipped),
        },
      };
    },
    async accept(args, state, answer) {
      if (state.phase !== 'pick') throw new Error('pick step in the wrong phase');
      const repo = await repository();
      const entries = parsePickText(answerText(answer));
      // The summary step prepared next needs the facts: taken from the survey cache while the picks are read.
      factsOf(args).catch(() => undefined);
      const reader = repo.candidateReader(readBudget, args.path, Math.min(entries.length, args.maxFiles));
      const validation = await validatePick(repo, entries, args.path, args.maxFiles, reader);
      return { next: readAhead(summaryPhase(state, validation), reader) };
    },
    // Server-owned models only: one repair request, then the built-in ranking over the same candidates.
    recover: {
      repairInstruction: (args, error) =>
        `That answer could not be used: ${error.message}. Answer again with only a JSON array of at most ` +
        `${args.maxFiles} file paths copied exactly from the candidate list above, for example ["README.md"]. No prose.`,
      async fallback(args, state, _params, reason) {
        if (state.phase !== 'pick') throw new Error('pick step in the wrong phase');
        const repo = await repository();
        // A fallback follows its own prepare in the same call (server-owned models run inline).
        const candidates =
          offered ?? (await repo.survey(args.path, { candidateBytes: budgets.pickPromptBytes })).candidates;
        // The primary manifest and entry point from the facts come right after the README, as the built-in model picks.
        const facts = await factsOf(args);
        const preferred = [facts?.manifests[0]?.path, facts?.entryPoints[0]?.path].filter(
          (path): path is string => path !== undefined,
        );
        const ranked = choosePicks({ candidates, limit: args.maxFiles, preferred });
        const reader = repo.candidateReader(readBudget, args.path, Math.min(ranked.length, args.maxFiles));
        const validation = await validatePick(repo, ranked, args.path, args.maxFiles, reader);
        return { next: readAhead({ ...summaryPhase(state, validation), fallback: reason }, reader) };
      },
    },
  };

  const summary: ModelStep<SummarizeRepoArgs, SummarizeState> = {
    key: SUMMARY_KEY,
    async prepare(args, state) {
      if (state.phase !== 'summary') throw new Error('summary step in the wrong phase');
      const repo = await repository();
      // Prepared again when a server-owned model answers in place of the host's: the same files, once counted.
      const prepared = state.files !== undefined;
      const paths = state.files?.map((file) => file.path) ?? state.picked;
      // The picked files were read as the pick was validated, in this same call (readAhead); otherwise read now.
      const early = prepared ? undefined : readAheadOf.get(state);
      const [read, facts] = await Promise.all([early ?? repo.read(paths, readBudget), factsOf(args)]);
      const shown = redact ? await redactFiles(read.files) : { files: read.files, entries: [] };
      const files = read.files.map(({ path, size, bytesShown, truncated, tokens, encoding }) => ({
        path,
        size,
        bytesShown,
        truncated,
        ...(tokens !== undefined && { tokens }),
        // Flagged when not plain UTF-8 (UTF-16, or invalid bytes shown as U+FFFD).
        ...(encoding !== 'utf8' && { encoding }),
      }));
      return {
        params: buildSummaryRequest({
          repoName: repoName(repo, args),
          audience: audienceOf(args),
          files: shown.files,
          ...(facts !== undefined && { facts }),
        }),
        // The read files carry the picked paths from here on: one copy in the sealed state, not two.
        state: addRedactions(
          {
            ...state,
            picked: [],
            files,
            skipped: prepared ? state.skipped : mergeSkipped(state.skipped, compactSkipped(read.skipped)),
          },
          prepared ? [] : shown.entries,
        ),
      };
    },
    async accept(args, state, answer) {
      if (state.phase !== 'summary') throw new Error('summary step in the wrong phase');
      const checked = checkSummaryText(answerText(answer));
      if (checked.kind === 'unusable') throw new FlowAnswerError(SUMMARY_KEY, checked.reason);
      const answered = checked.text;
      // A host's model may ignore maxTokens: the final text is cut to the result budget (about 25,000 tokens).
      const [{ text, cut }, facts] = await Promise.all([capResultText(answered, budgets.resultTokens), factsOf(args)]);
      const notes =
        state.fallback === undefined
          ? []
          : [
              `The model's file pick could not be used (${state.fallback}); the built-in ranking picked the files instead.`,
            ];
      if (cut) notes.push(`The summary was cut to about ${budgets.resultTokens} tokens (the result budget).`);
      const structured: FlowOutput = {
        mode: 'pick',
        summary: text,
        picked: state.files?.map((file) => file.path) ?? state.picked,
        dropped: state.dropped,
        audience: audienceOf(args),
        path: args.path ?? '',
        // The model's own name, as it reported itself: escaped like any text from a model.
        model: escapeControls(answer.model, MAX_MODEL_NAME_CHARS),
        candidates: state.candidates,
        files: state.files ?? [],
        skipped: state.skipped,
        redacted: state.redacted ?? [],
        pickedBy: state.fallback === undefined ? 'model' : 'builtin_ranking',
        notes,
        ...(facts !== undefined && { facts }),
      };
      return {
        done: {
          content: [{ type: 'text', text }, ...notes.map((note) => ({ type: 'text' as const, text: `Note: ${note}` }))],
          structuredContent: structured as unknown as Record<string, unknown>,
          isError: false,
        },
      };
    },
  };

  // Every request and the final result pass the redactor, whichever model source or front runs the flow.
  const guardedPick = redact ? withRedaction(pick) : pick;
  const guardedSummary = redact ? withRedaction(summary) : summary;
  return {
    tool: TOOL_NAME,
    keys: [PICK_KEY, SUMMARY_KEY],
    initial: () => ({ phase: 'pick' }),
    step: (state) => (state.phase === 'pick' ? guardedPick : guardedSummary),
    usageField: 'usage',
    notesField: 'notes',
    builtin: options.builtin ?? createBuiltinModel(),
  };
}
