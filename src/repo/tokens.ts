/**
 * Token estimates with a real tokenizer: `gpt-tokenizer`'s `o200k_base` (GPT-4o and later). Other model families
 * tokenize differently (typically within ±20% on code and English), so counts are estimates for budgeting, not
 * billing. The encoder (about 60 MB of ranks, a few hundred milliseconds of CPU to load) is loaded on first use only,
 * so listing never pays for it — in this thread, or on the tokenizer's own thread once `startTokenizerThread` ran
 * (tokenizerThread.ts): then it loads beside whatever this thread does, and every count is a message. Both give the
 * same counts and cuts: the encoder is the same and all the arithmetic below runs here.
 *
 * The encoder is much slower than linear on long unbroken text (one repeated character, CJK without spaces) and
 * can overflow the stack on it. Texts here may come from a peer (a host's answer, a file of the served tree), so
 * the encoder only ever sees pieces of at most `MAX_PIECE_CHARS` code units, cut after whitespace where there is
 * some, and the work yields to the event loop between pieces: the cost is linear and no request blocks the
 * others. A token never spans two pieces, so a count may exceed the whole-text count by about one per piece.
 */
import { createDigestCache, type DigestCache } from './digestCache.js';
import { createTokenizerThread, type Encoder } from './tokenizerThread.js';

/** The longest text the encoder is given at once (UTF-16 code units). */
export const MAX_PIECE_CHARS = 1024;
/** Pieces tokenized between two yields to the event loop. */
const PIECES_PER_TURN = 4;

let current: Encoder | undefined;
let threaded = false;

/** The encoder loaded into this thread, at the first call that needs it. */
function inThread(): Encoder {
  const loading = import('gpt-tokenizer/encoding/o200k_base');
  return {
    count: async (pieces) => {
      const { countTokens } = await loading;
      return pieces.map((piece) => countTokens(piece));
    },
    encode: async (text) => (await loading).encode(text),
    decode: async (tokens) => (await loading).decode(tokens),
  };
}

function encoder(): Encoder {
  return (current ??= inThread());
}

/**
 * Moves the encoder to its own thread and starts loading it there now, so that neither the loading nor a long
 * count blocks this thread (the CLI calls it first thing for `summarize`, and for `serve` once the first request is
 * answered). True when the encoder now lives on its own thread; false where no thread could be started (it then
 * loads here at first use) or when a count already loaded it here.
 */
export function startTokenizerThread(): boolean {
  if (current !== undefined) return threaded;
  current = createTokenizerThread(inThread);
  threaded = current !== undefined;
  return threaded;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/**
 * Where the piece starting at `start` ends: `MAX_PIECE_CHARS` on, moved back to just after the last whitespace in
 * its second half when there is one, and never between the two halves of a surrogate pair.
 */
function pieceEnd(text: string, start: number): number {
  const hard = start + MAX_PIECE_CHARS;
  if (hard >= text.length) return text.length;
  for (let index = hard - 1; index > start + MAX_PIECE_CHARS / 2; index--) {
    if (isSpace(text.charCodeAt(index))) return index + 1;
  }
  return isHighSurrogate(text.charCodeAt(hard - 1)) ? hard - 1 : hard;
}

/** The pieces the encoder sees, in order, made as they are needed; joined they are `text`. */
export function* tokenizerPieces(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start);
    yield text.slice(start, end);
    start = end;
  }
}

/** Lets other requests run (timers and I/O included) between pieces of a long text. */
function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Counts kept by the text counted (digestCache.ts): a count is a pure function of the text, so the same file read
 * again (a repeated pick on an unchanged repository) is not tokenized again — nor, with the tokenizer on its own
 * thread, sent there. No text is kept; at most 1,024 counts, each dropped after 10 minutes unused.
 */
const counted = createDigestCache<number>({ maxEntries: 1024 });

/** The token counts kept (tests). */
export function keptCounts(): Pick<DigestCache<number>, 'size' | 'clear'> {
  return counted;
}

/** Estimated tokens of `text`. A token covers at least one UTF-8 byte, so the empty string is 0. */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  const kept = counted.get([text]);
  if (kept !== undefined) return kept;
  const total = await countAll(text);
  counted.set([text], total);
  return total;
}

async function countAll(text: string): Promise<number> {
  const { count } = encoder();
  if (text.length <= MAX_PIECE_CHARS) return (await count([text]))[0] ?? 0;
  let total = 0;
  for (const batch of batches(tokenizerPieces(text))) {
    await yieldTurn();
    for (const tokens of await count(batch)) total += tokens;
  }
  return total;
}

/** The pieces of a text in groups of `PIECES_PER_TURN`: what is tokenized between two yields. */
function* batches(pieces: Iterable<string>): Generator<string[]> {
  let batch: string[] = [];
  for (const piece of pieces) {
    batch.push(piece);
    if (batch.length === PIECES_PER_TURN) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The length (in UTF-16 code units) of the longest common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let index = 0;
  while (index < max && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** The longest prefix of one piece with at most `limit` tokens (`limit` is below the piece's count). */
async function cutPiece(piece: string, limit: number, encoder: Encoder): Promise<{ text: string; tokens: number }> {
  if (limit <= 0) return { text: '', tokens: 0 };
  let end = commonPrefix(piece, await encoder.decode((await encoder.encode(piece)).slice(0, limit)));
  // Re-tokenizing a prefix can merge differently at its end: shrink (a bounded number of times) until it fits.
  for (let attempt = 0; attempt < 8; attempt++) {
    if (end > 0 && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
    const prefix = piece.slice(0, end);
    const used = (await encoder.count([prefix]))[0] ?? 0;
    if (used <= limit || end === 0) return { text: prefix, tokens: used };
    end = Math.max(0, end - 4 * (used - limit));
  }
  return { text: '', tokens: 0 };
}

/**
 * Whether `text` has at most `maxTokens` tokens. Tokenizes only texts with more UTF-8 bytes than `maxTokens` (a
 * token covers at least one byte, so a shorter text fits without being counted).
 */
export async function fitsTokens(text: string, maxTokens: number): Promise<boolean> {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (Buffer.byteLength(text, 'utf8') <= limit) return true;
  return (await cutToTokens(text, limit)).text.length === text.length;
}

/**
 * The longest prefix of `text` with at most `maxTokens` tokens, cut between characters (never inside a
 * surrogate pair), and its token count. Text that fits is returned whole. Texts with no more UTF-8 bytes than
 * `maxTokens` are never tokenized past their count: they cannot exceed it. The work stops at the group of pieces
 * where the budget runs out, so it is bounded by what is kept, not by the length of `text`.
 */
export async function cutToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (Buffer.byteLength(text, 'utf8') <= limit) return { text, tokens: await countTokens(text) };
  const current = encoder();
  let used = 0;
  let kept = 0;
  for (const batch of batches(tokenizerPieces(text))) {
    await yieldTurn();
    const counts = await current.count(batch);
    for (const [index, piece] of batch.entries()) {
      const tokens = counts[index] ?? 0;
      if (used + tokens > limit) {
        const last = await cutPiece(piece, limit - used, current);
        return { text: text.slice(0, kept) + last.text, tokens: used + last.tokens };
      }
      used += tokens;
      kept += piece.length;
    }
  }
  return { text, tokens: used };
}
