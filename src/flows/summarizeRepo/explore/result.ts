/** The final result of an exploration: the summary, what the model looked at, what ended it — redacted. */
import type { CallToolResult } from '@modelcontextprotocol/server';

import type { RepoFacts } from '../../../repo/index.js';
import { addRedactions, finishResult } from '../redaction.js';
import type { SummarizeRepoArgs, SummarizeRepoOutput } from '../schema.js';
import { describeEnd, type ExploreBounds } from './bounds.js';
import type { ExploreState } from './callLog.js';
import type { Rebuilt } from './conversation.js';
import { audienceOf } from './prompt.js';

type FlowOutput = Omit<SummarizeRepoOutput, 'usage'>;

export interface ExploreResultInput {
  args: SummarizeRepoArgs;
  state: ExploreState;
  /** The conversation as the last request showed it (its calls, files and redactions). */
  rebuilt: Rebuilt;
  /** The summary text, already checked and cut to the result budget. */
  text: string;
  model: string;
  listed: number;
  facts: RepoFacts | undefined;
  bounds: ExploreBounds;
  /** Further notes (a fallback, a cut). */
  notes: string[];
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

export async function exploreResult(input: ExploreResultInput): Promise<CallToolResult> {
  const { state, rebuilt, bounds } = input;
  const endedBy = state.end ?? 'model';
  const rounds = state.turns.length + 1;
  const looked = rebuilt.files.map((file) => file.path);
  const notes = [
    `Explored with ${plural(rebuilt.calls.length, 'tool call')} in ${plural(rounds, 'round')} ` +
      `(${rebuilt.bytes} bytes of results), ended by ${describeEnd(endedBy, bounds)}; ` +
      `files read: ${looked.length === 0 ? 'none' : looked.join(', ')}.`,
    ...input.notes,
  ];
  const structured: FlowOutput = {
    mode: 'explore',
    summary: input.text,
    picked: looked,
    dropped: [],
    audience: audienceOf(input.args),
    path: input.args.path ?? '',
    model: input.model,
    candidates: { listed: 0, total: input.listed },
    files: rebuilt.files.map(({ path, size, bytesShown, truncated, encoding }) => ({
      path,
      size,
      bytesShown,
      truncated,
      ...(encoding !== 'utf8' && { encoding }),
    })),
    skipped: [],
    redacted: [],
    pickedBy: 'model',
    notes,
    ...(input.facts !== undefined && { facts: input.facts }),
    exploration: { calls: rebuilt.calls, endedBy, rounds, bytes: rebuilt.bytes, bounds },
  };
  // The same finishing as the pick flow's: texts redacted, `redacted` and its note filled in.
  return finishResult(
    {
      content: [
        { type: 'text', text: input.text },
        ...notes.map((note) => ({ type: 'text' as const, text: `Note: ${note}` })),
      ],
      structuredContent: structured as unknown as Record<string, unknown>,
      isError: false,
    },
    addRedactions({}, rebuilt.redacted),
  );
}
