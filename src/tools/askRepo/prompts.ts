/** ask_repo's model questions: their system prompts, the prompt texts, and the answers' JSON schemas. */
import { z } from 'zod';

import { formatShown, type ShownFile } from './shown.js';

export interface RankedPath {
  path: string;
  size: number;
  /** How well its path and content match the question's terms. */
  hits: number;
}

export const CITATION = z.object({ path: z.string(), lines: z.string() });

export const PICK_ANSWER = z.object({ paths: z.array(z.string()).max(50) });

export const ANSWER = z.object({ answer: z.string(), citations: z.array(CITATION).max(100).default([]) });

export const EXPLORE_ANSWER = z.discriminatedUnion('action', [
  z.object({ action: z.literal('list'), path: z.string().default('') }),
  z.object({ action: z.literal('read'), paths: z.array(z.string()).min(1).max(10) }),
  z.object({ action: z.literal('answer'), answer: z.string(), citations: z.array(CITATION).max(100).default([]) }),
]);

export const PICK_SYSTEM =
  'You choose which files of a repository to read to answer a question about it. Answer with JSON only: ' +
  '{"paths": ["path", ...]}, most useful first.';

export const ANSWER_SYSTEM =
  'You answer a question about a repository from the files shown, with numbered lines. Cite path:start-end for ' +
  'every claim, only lines you were shown. Answer with JSON only: {"answer": "text with citations", ' +
  '"citations": [{"path": "src/a.ts", "lines": "10-24"}]}. If the files do not answer it, say so.';

export const EXPLORE_SYSTEM =
  'You explore a repository, read-only, to answer a question about it. Each turn answer with JSON only, one of: ' +
  '{"action": "list", "path": "dir"} to list a directory; {"action": "read", "paths": ["a", "b"]} to read files; ' +
  '{"action": "answer", "answer": "text citing path:start-end", "citations": [{"path": "a", "lines": "1-9"}]} ' +
  'when you can answer. Cite only lines you were shown.';

export const questionLine = (question: string): string => `QUESTION: ${question.replace(/\s+/g, ' ').trim()}`;

export function rankedLines(ranked: readonly RankedPath[]): string {
  return ranked.map((entry) => `${entry.path}\t${entry.size} bytes\tmatches ${entry.hits}`).join('\n');
}

export function pickPrompt(question: string, ranked: readonly RankedPath[], total: number, maxFiles: number): string {
  return [
    questionLine(question),
    `Choose at most ${maxFiles} files. The repository lists ${total} files; the ${ranked.length} best matches ` +
      'of its paths and contents for the question (path, size, matches):',
    'CANDIDATES:',
    rankedLines(ranked),
  ].join('\n');
}

export function answerPrompt(question: string, files: readonly ShownFile[]): string {
  return [questionLine(question), 'FILES READ:', ...files.map(formatShown)].join('\n\n');
}

export function explorePrompt(
  question: string,
  ranked: readonly RankedPath[],
  observations: readonly string[],
  turnsLeft: number,
  filesLeft: number,
): string {
  return [
    questionLine(question),
    `Turns left: ${turnsLeft}${turnsLeft === 1 ? ' (answer now)' : ''}. Read at most ${filesLeft} files more.`,
    `CANDIDATES (path, size, matches):\n${rankedLines(ranked)}`,
    ...observations,
  ].join('\n\n');
}
