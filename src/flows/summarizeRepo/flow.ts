/**
 * `summarize_repo` as a two-step flow: the model picks files from a ranked candidate list,
 * the server reads them safely, the model summarizes them. Written once; the engine runs it
 * against the host's model (MRTR) or a server-owned one.
 */
import { basename } from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';

import type { Repository, SkippedClass } from '../../repo/index.js';
import { rankFiles } from '../../repo/rank.js';
import type { FlowDefinition, ModelStep } from '../flow.js';
import { answerText } from '../flow.js';
import { FlowAnswerError } from '../flowAnswerError.js';
import { parsePickText, validatePick } from './pickAnswer.js';
import { buildPickRequest, buildSummaryRequest } from './prompts.js';
import { PICK_KEY, SUMMARY_KEY, TOOL_NAME, type SummarizeRepoArgs, type SummarizeRepoOutput } from './schema.js';

export const DEFAULT_AUDIENCE = 'developer';
export const READ_BUDGET = { perFileBytes: 16 * 1024, totalBytes: 48 * 1024 };
/** Skipped-file examples carried in the sealed state are few and short: the token is capped. */
const STATE_EXAMPLES = 2;
const STATE_EXAMPLE_LENGTH = 100;

type FileInfo = SummarizeRepoOutput['files'][number];

export type SummarizeState =
  | { phase: 'pick'; candidates?: { listed: number; total: number }; skipped?: SkippedClass[] }
  | {
      phase: 'summary';
      picked: string[];
      dropped: string[];
      candidates: { listed: number; total: number };
      skipped: SkippedClass[];
      files?: FileInfo[];
    };

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
          text: `No readable text files under '${path || '.'}' (everything is ignored, binary or too large). Pass another path.`,
        },
      ],
      isError: true,
    },
  };
}

/** `openRepo` is called lazily (once), so capability checks run before any repository work. */
export function createSummarizeRepoFlow(
  openRepo: () => Promise<Repository>,
): FlowDefinition<SummarizeRepoArgs, SummarizeState> {
  let opened: Promise<Repository> | undefined;
  const repository = (): Promise<Repository> => (opened ??= openRepo());
  const repoName = (repo: Repository, args: SummarizeRepoArgs): string =>
    basename(args.path ? `${repo.root}/${args.path}` : repo.root);
  const audienceOf = (args: SummarizeRepoArgs): string => args.audience?.trim() || DEFAULT_AUDIENCE;

  const pick: ModelStep<SummarizeRepoArgs, SummarizeState> = {
    key: PICK_KEY,
    async prepare(args) {
      const repo = await repository();
      const listing = await repo.list(args.path);
      if (listing.files.length === 0) return nothingToSummarize(listing.base);
      const ranked = rankFiles(listing.files);
      const { params, listed } = buildPickRequest({
        repoName: repoName(repo, args),
        audience: audienceOf(args),
        maxFiles: args.maxFiles,
        ranked,
      });
      return {
        params,
        state: {
          phase: 'pick',
          candidates: { listed, total: ranked.length },
          skipped: compactSkipped(listing.skipped),
        },
      };
    },
    async accept(args, state, answer) {
      if (state.phase !== 'pick') throw new Error('pick step in the wrong phase');
      const repo = await repository();
      const { picked, dropped } = await validatePick(repo, parsePickText(answerText(answer)), args.path, args.maxFiles);
      return {
        next: {
          phase: 'summary',
          picked,
          dropped,
          candidates: state.candidates ?? { listed: 0, total: 0 },
          skipped: state.skipped ?? [],
        },
      };
    },
  };

  const summary: ModelStep<SummarizeRepoArgs, SummarizeState> = {
    key: SUMMARY_KEY,
    async prepare(args, state) {
      if (state.phase !== 'summary') throw new Error('summary step in the wrong phase');
      const repo = await repository();
      const read = await repo.read(state.picked, READ_BUDGET);
      const files = read.files.map(({ path, size, bytesShown, truncated }) => ({ path, size, bytesShown, truncated }));
      return {
        params: buildSummaryRequest({ repoName: repoName(repo, args), audience: audienceOf(args), files: read.files }),
        state: { ...state, files, skipped: mergeSkipped(state.skipped, compactSkipped(read.skipped)) },
      };
    },
    async accept(args, state, answer) {
      if (state.phase !== 'summary') throw new Error('summary step in the wrong phase');
      const text = answerText(answer).trim();
      if (text.length === 0) throw new FlowAnswerError(SUMMARY_KEY, 'the summary is empty');
      const structured: SummarizeRepoOutput = {
        summary: text,
        picked: state.picked,
        dropped: state.dropped,
        audience: audienceOf(args),
        path: args.path ?? '',
        model: answer.model,
        candidates: state.candidates,
        files: state.files ?? [],
        skipped: state.skipped,
      };
      return {
        done: {
          content: [{ type: 'text', text }],
          structuredContent: structured as unknown as Record<string, unknown>,
          isError: false,
        },
      };
    },
  };

  return {
    tool: TOOL_NAME,
    keys: [PICK_KEY, SUMMARY_KEY],
    initial: () => ({ phase: 'pick' }),
    step: (state) => (state.phase === 'pick' ? pick : summary),
  };
}
