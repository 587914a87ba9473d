import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open, realpath } from 'node:fs/promises';
import { SAFE_OPEN_FLAGS } from './classify.js';
import type { DecodedPrefix } from './decode.js';
import { BOM_PROBE_BYTES, decodePrefix } from './decode.js';
import { absoluteOf, hasVcsSegment, isInside, normalizeRelPath, relativeToRoot } from './paths.js';
import type { SecretFileFilter } from './secrets/secretFiles.js';
import { SkipCollector } from './skips.js';
import { countTokens, cutToTokens } from './tokens.js';
import type { ReadBudget, ReadFileResult, ReadResult, SkipReason } from './types.js';

/** The visible marker appended to a file's content when not all of it is shown. */
export function formatTruncationMarker(shown: number, size: number): string {
  return `\n[… truncated: showing ${shown} of ${size} bytes]`;
}

function nonNegative(value: number): number {
  return Number.isNaN(value) || value < 0 ? 0 : Math.floor(value);
}

async function readPrefix(handle: FileHandle, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const { bytesRead } = await handle.read(buffer, offset, length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
}

function readPrefixSync(fd: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const bytesRead = readSync(fd, buffer, offset, length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
}

/** A file opened for reading: the handle's own `fstat` said it is a regular file of `size` bytes. */
export interface OpenedFile {
  handle: FileHandle;
  path: string;
  size: number;
}

/** The same, opened synchronously ({@link openConfinedSync}): a descriptor to close with `closeSync`. */
export interface OpenedFileSync {
  fd: number;
  path: string;
  size: number;
}

type Opened = OpenedFile | { reason: SkipReason };

/** Why the file `path` whose realpath is `real` may not be read, if it may not (the checks after `realpath`). */
function confinementOf(root: string, real: string, secretFiles: SecretFileFilter): SkipReason | undefined {
  if (!isInside(root, real)) return 'symlink_outside_root';
  const target = relativeToRoot(root, real);
  if (hasVcsSegment(target)) return 'vcs_dir';
  if (secretFiles.isSecret(target)) return 'secret_file';
  return undefined;
}

/**
 * Re-checks confinement at read time: the realpath must stay inside the root and the target be a regular file. The
 * verdict on the type and the size comes from the opened handle (`fstat`), never from the path a second time.
 */
export async function openConfined(root: string, path: string, secretFiles: SecretFileFilter): Promise<Opened> {
  if (secretFiles.isSecret(path)) return { reason: 'secret_file' };
  let real: string;
  try {
    real = await realpath(absoluteOf(root, path));
  } catch {
    return { reason: 'unreadable' };
  }
  const refused = confinementOf(root, real, secretFiles);
  if (refused !== undefined) return { reason: refused };
  let handle: FileHandle;
  try {
    handle = await open(real, SAFE_OPEN_FLAGS);
  } catch {
    return { reason: 'unreadable' };
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, path, size: stats.size };
  } catch {
    // fall through: closed below
  }
  await handle.close().catch(() => undefined);
  return { reason: 'special_file' };
}

/**
 * {@link openConfined} in blocking calls, with the same checks, for `real`, the realpath of `path` (paths.ts:
 * `realpathUnder`, which resolves a path through a symbolic link off the event loop): for the few files of one pick
 * (at most a dozen, each read within its budget), where round trips through libuv's thread pool per file cost far
 * more than the calls themselves. The open never blocks (`O_NONBLOCK`, and a FIFO is refused by the `fstat` that
 * follows), and `real` is checked to be inside the root before it is opened.
 */
export function openConfinedSync(
  root: string,
  path: string,
  real: string,
  secretFiles: SecretFileFilter,
): OpenedFileSync | { reason: SkipReason } {
  if (secretFiles.isSecret(path)) return { reason: 'secret_file' };
  const refused = confinementOf(root, real, secretFiles);
  if (refused !== undefined) return { reason: refused };
  let fd: number;
  try {
    fd = openSync(real, SAFE_OPEN_FLAGS);
  } catch {
    return { reason: 'unreadable' };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { fd, path, size: stats.size };
  } catch {
    // fall through: closed below
  }
  closeSync(fd);
  return { reason: 'special_file' };
}

/** Tokens kept free for the truncation marker when a file is cut to fit a token budget. */
const MARKER_TOKENS = 16;

function tokenLimit(value: number | undefined): number {
  return value === undefined ? Number.POSITIVE_INFINITY : nonNegative(value);
}

/**
 * The decoded prefix of `head` that fits `maxTokens`: the tokenizer finds how many characters fit, then the byte
 * limit is narrowed (by bisection over `decodePrefix`, no further tokenizing) to the longest cut on a character
 * boundary whose text is no longer than that — so `bytesUsed` stays exact in the file's own encoding.
 */
async function fitTokens(
  head: Uint8Array,
  decoded: DecodedPrefix,
  size: number,
  maxTokens: number,
): Promise<DecodedPrefix> {
  const limit = Math.max(0, maxTokens - MARKER_TOKENS);
  // A token covers at least one byte: a text with no more bytes than the limit fits without being tokenized.
  if (Buffer.byteLength(decoded.text, 'utf8') <= limit) return decoded;
  const cut = await cutToTokens(decoded.text, limit);
  if (cut.text.length === decoded.text.length) return decoded;
  let low = 0;
  let high = decoded.bytesUsed;
  let best = decodePrefix(head, 0, size);
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const attempt = decodePrefix(head, middle, size);
    if (attempt.text.length <= cut.text.length) {
      best = attempt;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/** What is left of a {@link ReadBudget} as files are read one after another. */
export interface ReadCursor {
  readonly perFile: number;
  readonly perFileTokens: number;
  remaining: number;
  /** The total token budget less the counted files' tokens (exact: the uncounted ones are held apart). */
  remainingTokens: number;
  totalBytesShown: number;
  totalTokens: number;
  /** False when files report no tokens ({@link ReadBudget.fileTokens}): texts are then counted only when needed. */
  readonly fileTokens: boolean;
  /** Shown texts not counted yet (only without `fileTokens`), and their UTF-8 bytes: a bound on their tokens. */
  uncounted: string[];
  uncountedBytes: number;
}

export function createReadCursor(budget: ReadBudget): ReadCursor {
  return {
    perFile: nonNegative(budget.perFileBytes),
    perFileTokens: tokenLimit(budget.perFileTokens),
    remaining: nonNegative(budget.totalBytes),
    remainingTokens: tokenLimit(budget.totalTokens),
    totalBytesShown: 0,
    totalTokens: 0,
    fileTokens: budget.fileTokens ?? true,
    uncounted: [],
    uncountedBytes: 0,
  };
}

/** Charges counted tokens to the cursor (the budget never goes below zero, so the order of charges is free). */
function charge(cursor: ReadCursor, tokens: number): void {
  cursor.remainingTokens = Math.max(0, cursor.remainingTokens - tokens);
  cursor.totalTokens += tokens;
}

/** Counts the texts held uncounted, so that `remainingTokens` is exact again. */
async function settle(cursor: ReadCursor): Promise<void> {
  const texts = cursor.uncounted;
  cursor.uncounted = [];
  cursor.uncountedBytes = 0;
  for (const text of texts) charge(cursor, await countTokens(text));
}

/**
 * The token limit for the next file. Without per-file counts it is first taken from a bound (the uncounted texts'
 * bytes); only when the file's text might not fit under that bound are they counted, for the exact limit. Either
 * way a text that fits is never cut, and one that does not is cut against the exact limit, as with counts.
 */
async function tokenLimitFor(cursor: ReadCursor, text: string): Promise<number> {
  const exact = (): number => Math.min(cursor.perFileTokens, cursor.remainingTokens);
  if (cursor.uncounted.length === 0) return exact();
  const bound = Math.min(cursor.perFileTokens, Math.max(0, cursor.remainingTokens - cursor.uncountedBytes));
  if (Buffer.byteLength(text, 'utf8') <= Math.max(0, bound - MARKER_TOKENS)) return bound;
  await settle(cursor);
  return exact();
}

/**
 * The start of an opened file: what the cursor lets it show (and at least `minBytes`, for a byte-order mark or a
 * sniff), never more than the file holds. Nothing is charged yet.
 */
export function readHead(file: OpenedFile, cursor: ReadCursor, minBytes = BOM_PROBE_BYTES): Promise<Buffer> {
  return readPrefix(file.handle, headLength(file.size, cursor, minBytes));
}

/** {@link readHead} of a file opened with {@link openConfinedSync}, in blocking reads. */
export function readHeadSync(file: OpenedFileSync, cursor: ReadCursor, minBytes = BOM_PROBE_BYTES): Buffer {
  return readPrefixSync(file.fd, headLength(file.size, cursor, minBytes));
}

/**
 * Bytes read past a cut: decoded into `after`, never shown, so that the redactor decides on a secret that crosses
 * the cut as a whole (flows/summarizeRepo/redaction.ts) instead of seeing only its first characters.
 */
export const LOOKAHEAD_BYTES = 4096;

function headLength(size: number, cursor: ReadCursor, minBytes: number): number {
  const limit = Math.min(cursor.perFile, cursor.remaining);
  return Math.min(size, Math.max(limit + LOOKAHEAD_BYTES, minBytes, BOM_PROBE_BYTES));
}

/** The text that follows a cut, from the bytes read past it (at most {@link LOOKAHEAD_BYTES}). */
function lookahead(head: Buffer, decoded: DecodedPrefix, size: number): string {
  if (head.length <= decoded.bytesUsed) return '';
  const wider = decodePrefix(head, decoded.bytesUsed + LOOKAHEAD_BYTES, size);
  return wider.text.startsWith(decoded.text) ? wider.text.slice(decoded.text.length) : '';
}

/** The file as shown from its `head` (decoded, cut to the byte and token budgets, marked), charged to the cursor. */
export async function showHead(
  file: { path: string; size: number },
  head: Buffer,
  cursor: ReadCursor,
): Promise<ReadFileResult> {
  const { path, size } = file;
  const limit = Math.min(cursor.perFile, cursor.remaining);
  let decoded = decodePrefix(head, limit, size);
  const maxTokens = await tokenLimitFor(cursor, decoded.text);
  if (Number.isFinite(maxTokens)) decoded = await fitTokens(head, decoded, size, maxTokens);
  const truncated = decoded.bytesUsed < size;
  const content = truncated ? decoded.text + formatTruncationMarker(decoded.bytesUsed, size) : decoded.text;
  const after = truncated ? lookahead(head, decoded, size) : '';
  cursor.remaining -= decoded.bytesUsed;
  cursor.totalBytesShown += decoded.bytesUsed;
  const shown = {
    path,
    size,
    content,
    truncated,
    bytesShown: decoded.bytesUsed,
    encoding: decoded.encoding,
    ...(after !== '' && { after }),
  };
  if (!cursor.fileTokens) {
    cursor.uncounted.push(content);
    cursor.uncountedBytes += Buffer.byteLength(content, 'utf8');
    return shown;
  }
  const tokens = await countTokens(content);
  charge(cursor, tokens);
  return { ...shown, tokens };
}

/** A read's totals: bytes shown, and tokens when files report them. */
export function readTotals(cursor: ReadCursor): Pick<ReadResult, 'totalBytesShown' | 'totalTokens'> {
  return { totalBytesShown: cursor.totalBytesShown, ...(cursor.fileTokens && { totalTokens: cursor.totalTokens }) };
}

/**
 * Reads already-validated paths (relative to `root`) in order, within the budget: each file shows at most
 * `perFileBytes` (and `perFileTokens`), all files together at most `totalBytes` (and `totalTokens`). Only the
 * bytes to be shown are read. A file cut short carries {@link formatTruncationMarker}; once a total is spent,
 * later files still appear, with no content. Every file reports its estimated tokens, unless the budget's
 * `fileTokens` is false.
 */
export async function readFiles(
  root: string,
  paths: readonly string[],
  budget: ReadBudget,
  secretFiles: SecretFileFilter,
  onRead?: (done: number, of: number) => void,
  signal?: AbortSignal,
): Promise<ReadResult> {
  const cursor = createReadCursor(budget);
  const files: ReadFileResult[] = [];
  const skips = new SkipCollector();
  const seen = new Set<string>();

  for (const [index, requested] of paths.entries()) {
    signal?.throwIfAborted();
    onRead?.(index, paths.length);
    const path = normalizeRelPath(requested);
    if (path === undefined || path === '') {
      skips.add('unreadable', requested);
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    const opened = await openConfined(root, path, secretFiles);
    if ('reason' in opened) {
      skips.add(opened.reason, path);
      continue;
    }
    try {
      files.push(await showHead(opened, await readHead(opened, cursor), cursor));
    } catch {
      skips.add('unreadable', path);
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }
  onRead?.(paths.length, paths.length);
  return { files, skipped: skips.toArray(), ...readTotals(cursor) };
}
