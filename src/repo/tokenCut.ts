/**
 * The token arithmetic on a loaded encoder, shared by the in-thread tokenizer and the worker (tokenWorker.ts).
 * Pure: no I/O, no module state.
 */
export interface Encoder {
  countTokens(text: string): number;
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** The length (in UTF-16 code units) of the longest common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let index = 0;
  while (index < max && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** The longest prefix of `text` with at most `limit` tokens (see tokens.ts `cutToTokens`). */
export function cutWith(encoder: Encoder, text: string, limit: number): { text: string; tokens: number } {
  const tokens = encoder.encode(text);
  if (tokens.length <= limit) return { text, tokens: tokens.length };
  let end = commonPrefix(text, encoder.decode(tokens.slice(0, limit)));
  // Re-tokenizing a prefix can merge differently at its end: shrink (a bounded number of times) until it fits.
  for (let attempt = 0; attempt < 8; attempt++) {
    const last = text.charCodeAt(end - 1);
    if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
    const prefix = text.slice(0, end);
    const used = encoder.countTokens(prefix);
    if (used <= limit || end === 0) return { text: prefix, tokens: used };
    end = Math.max(0, end - 4 * (used - limit));
  }
  return { text: '', tokens: 0 };
}

/** One request to the tokenizer worker, and its answer. */
export type TokenRequest =
  { id: number; op: 'count'; text: string } | { id: number; op: 'cut'; text: string; limit: number };
export type TokenReply = { id: number; count?: number; cut?: { text: string; tokens: number }; error?: string };
