/**
 * Lays the dialog's text out for a terminal: lines wrapped to its width, and pages of lines sized so that a whole
 * screen (the header, the page and the choices) fits its height — the header never scrolls away.
 */

/** Where a piece of at most `room` points starting at `start` ends: before an escape (`⟨U+…⟩`) or after a space near the end. */
function breakAt(points: readonly string[], start: number, room: number): number {
  const end = start + room;
  if (end >= points.length) return points.length;
  for (let at = end; at > end - 12 && at > start + 1; at--) {
    if (points[at] === '⟨' || points[at - 1] === ' ') return at;
  }
  return end;
}

/** `lines` hard-wrapped to `width` code points; a continuation keeps the line's indentation. */
export function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  const max = Math.max(8, Math.floor(width));
  for (const line of lines) {
    const points = Array.from(line);
    if (points.length <= max) {
      out.push(line);
      continue;
    }
    const indent = Math.min(/^ */.exec(line)?.[0].length ?? 0, Math.floor(max / 2));
    let at = breakAt(points, 0, max);
    out.push(points.slice(0, at).join(''));
    const room = max - indent - 2;
    while (at < points.length) {
      const end = breakAt(points, at, room);
      out.push(`${' '.repeat(indent + 2)}${points.slice(at, end).join('')}`);
      at = end;
    }
  }
  return out;
}

/** `lines` in pages of at most `height` lines (at least one page). */
export function paginate(lines: readonly string[], height: number): string[][] {
  const size = Math.max(1, Math.floor(height));
  const pages: string[][] = [];
  for (let at = 0; at < lines.length; at += size) pages.push(lines.slice(at, at + size));
  return pages.length === 0 ? [[]] : pages;
}

/**
 * Screen lines a dialog step takes besides its header and text: the note's frame (guide, title, two blank lines,
 * bottom) and the choice list's (guide, question, key help, end), plus the line the cursor rests on.
 */
const FRAME_LINES = 10;

/** The lines left for a step's text on a terminal of `rows`, with `headerLines` of header and `choices` choices. */
export function roomFor(rows: number, headerLines: number, choices: number): number {
  return Math.max(4, rows - headerLines - choices - FRAME_LINES);
}

/** The first `room` lines of `lines`; when cut, the last says how many more lines "view all" holds. */
export function fitPreview(lines: readonly string[], room: number): string[] {
  if (lines.length <= room) return [...lines];
  const kept = lines.slice(0, Math.max(1, room - 1));
  return [...kept, `… ${lines.length - kept.length} more line(s) of this preview: choose View all`];
}
