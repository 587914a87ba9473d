/**
 * A diff in bounded pieces: each file's patch cut at {@link FILE_PATCH_BYTES}, files packed in order into pieces of
 * at most {@link PIECE_BYTES}, at most {@link MAX_PIECES} pieces. Files past the last piece are named, not reviewed.
 * Whatever the diff's size, the model input of a review is bounded by these three numbers.
 */
import type { DiffFile } from '../../entries/tool.js';

export const FILE_PATCH_BYTES = 24 * 1024;
export const PIECE_BYTES = 32 * 1024;
/** With the join, one call stays within the default budget of 6 server-side model calls per tool call. */
export const MAX_PIECES = 5;

export interface Piece {
  files: string[];
  text: string;
}

/** One file as a model sees it: a header, then its patch (cut), or why there is none. */
export function fileText(file: DiffFile): string {
  const header = `=== DIFF ${file.path} (${file.status}, +${file.added} -${file.removed}) ===`;
  if (file.withheld) return `${header}\n(secret-bearing file: its diff is withheld)`;
  if (file.binary) return `${header}\n(binary file${file.size !== undefined ? `, ${file.size} bytes` : ''})`;
  if (Buffer.byteLength(file.patch) <= FILE_PATCH_BYTES) return `${header}\n${file.patch.trimEnd()}`;
  const lines = file.patch.split('\n');
  let bytes = 0;
  let kept = 0;
  while (kept < lines.length && bytes + Buffer.byteLength(lines[kept] ?? '') + 1 <= FILE_PATCH_BYTES) {
    bytes += Buffer.byteLength(lines[kept] ?? '') + 1;
    kept++;
  }
  return `${header}\n${lines.slice(0, kept).join('\n')}\n[… ${lines.length - kept} more lines of this file's diff not shown]`;
}

export function makePieces(files: readonly DiffFile[]): { pieces: Piece[]; notReviewed: string[] } {
  const pieces: Piece[] = [];
  const notReviewed: string[] = [];
  let current: Piece | undefined;
  let bytes = 0;
  for (const file of files) {
    const text = fileText(file);
    const size = Buffer.byteLength(text) + 2;
    if (current !== undefined && bytes + size > PIECE_BYTES) current = undefined;
    if (current === undefined) {
      if (pieces.length >= MAX_PIECES) {
        notReviewed.push(file.path);
        continue;
      }
      current = { files: [], text: '' };
      pieces.push(current);
      bytes = 0;
    }
    current.files.push(file.path);
    current.text += (current.text === '' ? '' : '\n\n') + text;
    bytes += size;
  }
  return { pieces, notReviewed };
}
