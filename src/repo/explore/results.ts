/** Building explore tool results: byte counts, failures, and text cut to a byte cap on line boundaries. */
import { escapeControls } from '../../protocol/sanitize.js';
import type { ExploreErrorCode, ExploreResult } from './types.js';

export const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

export function failure(error: ExploreErrorCode, text: string): ExploreResult {
  return { text, bytes: bytesOf(text), error };
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, on a character boundary. */
export function cutToBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // Back up over continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

/** `lines` joined, as many as fit `maxBytes` with the closing line; a cut says how many lines were left out. */
export function fitLines(lines: readonly string[], maxBytes: number, closing = ''): { text: string; cut: number } {
  const kept: string[] = [];
  let used = bytesOf(closing) + 64; // room for the cut note
  for (const line of lines) {
    const cost = bytesOf(line) + 1;
    if (used + cost > maxBytes) break;
    kept.push(line);
    used += cost;
  }
  const cut = lines.length - kept.length;
  const note = cut > 0 ? [`[… ${cut} more line${cut === 1 ? '' : 's'} not shown: the result is capped]`] : [];
  const text = [...kept, ...note, ...(closing === '' ? [] : [closing])].join('\n');
  return { text: cutToBytes(text, maxBytes), cut };
}

/** A path as a result quotes it: JSON-quoted, controls escaped, bounded. */
export const quoted = (path: string): string => JSON.stringify(escapeControls(path, 200));
