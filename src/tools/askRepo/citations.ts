/**
 * The server's check of an answer's citations: each `path:line-range` must name a file the model was shown and
 * lines within what it was shown of it. A citation that does not is removed — from the citations and from the
 * answer's text — and counted.
 */
import { formatRange, parseLines, type ShownFile } from './shown.js';
import type { LineRange } from './terms.js';

export interface Citation {
  path: string;
  lines: LineRange;
  verified: boolean;
}

export interface CheckedAnswer {
  answer: string;
  citations: Citation[];
  /** Citations of files or lines never shown: removed from the answer and counted. */
  removed: number;
}

/** `path:12-30` (or `path:L12-L30`, `path:12`) inside an answer's text. */
const INLINE = /`?([\w@./+-]+\.[\w]+|[\w@./+-]*\/[\w@.+-]+):(L?\d{1,7}(?:\s*[-–]\s*L?\d{1,7})?)`?/g;

function verify(shown: ReadonlyMap<string, ShownFile>, path: string, lines: LineRange): boolean {
  const file = shown.get(path.replace(/^\.\//, ''));
  return file !== undefined && lines.end <= file.lines.length;
}

export function checkCitations(
  answer: string,
  listed: ReadonlyArray<{ path: string; lines: string }>,
  files: readonly ShownFile[],
): CheckedAnswer {
  const shown = new Map(files.map((file) => [file.path, file]));
  const citations: Citation[] = [];
  const seen = new Set<string>();
  let removed = 0;
  const add = (path: string, lines: LineRange | undefined): boolean => {
    const clean = path.replace(/^\.\//, '');
    const verified = lines !== undefined && verify(shown, clean, lines);
    const key = `${clean}:${lines === undefined ? '?' : formatRange(lines)}`;
    if (seen.has(key)) return verified;
    seen.add(key);
    if (!verified) removed++;
    citations.push({ path: clean, lines: lines ?? { start: 0, end: 0 }, verified });
    return verified;
  };
  for (const citation of listed) add(citation.path, parseLines(citation.lines));
  const text = answer.replace(INLINE, (whole, path: string, lines: string) =>
    add(path, parseLines(lines)) ? whole : '[citation removed: never read]',
  );
  return { answer: text, citations, removed };
}
