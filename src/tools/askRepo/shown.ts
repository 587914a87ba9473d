/**
 * What the model was shown of each file, in the one format every ask_repo prompt uses — numbered lines under a
 * header — and back: the built-in model reads the prompt it is given, and citations are checked against the lines
 * that were actually shown.
 */
import type { LineRange } from './terms.js';

export interface ShownFile {
  path: string;
  /** The lines shown (line 1 first); a cut file shows its first lines only. */
  lines: string[];
  truncated: boolean;
}

const HEADER = /^=== FILE (.+) \(lines 1-(\d+)(, cut)?\) ===$/;

/** A file as shown to a model: a header, then `N| text` lines. */
export function formatShown(file: ShownFile): string {
  const header = `=== FILE ${file.path} (lines 1-${file.lines.length}${file.truncated ? ', cut' : ''}) ===`;
  return [header, ...file.lines.map((line, index) => `${index + 1}| ${line}`)].join('\n');
}

/** The reader's marker at the end of a file it cut. */
const CUT_MARKER = /\n\[… truncated: showing \d+ of \d+ bytes\]$/;

/** The file's text as read, as lines to show (a cut file loses its marker and its last, partial line). */
export function shownFile(path: string, content: string): ShownFile {
  const truncated = CUT_MARKER.test(content);
  const lines = content.replace(CUT_MARKER, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (truncated && lines.length > 1) lines.pop();
  return { path, lines, truncated };
}

/** The files shown in a prompt, parsed back from it. */
export function parseShown(prompt: string): ShownFile[] {
  const files: ShownFile[] = [];
  let current: ShownFile | undefined;
  for (const line of prompt.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null) {
      current = { path: header[1] ?? '', lines: [], truncated: header[3] !== undefined };
      files.push(current);
      continue;
    }
    const numbered = /^(\d+)\| ?(.*)$/.exec(line);
    if (current !== undefined && numbered !== null && Number(numbered[1]) === current.lines.length + 1) {
      current.lines.push(numbered[2] ?? '');
    } else {
      current = undefined;
    }
  }
  return files;
}

/** `12-30`, `12` or `L12-L30` as a range; undefined when it is not one. */
export function parseLines(text: string): LineRange | undefined {
  const match = /^L?(\d{1,7})(?:\s*[-–]\s*L?(\d{1,7}))?$/.exec(text.trim());
  if (match === null) return undefined;
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  return start >= 1 && end >= start ? { start, end } : undefined;
}

export const formatRange = (range: LineRange): string =>
  range.start === range.end ? `${range.start}` : `${range.start}-${range.end}`;
