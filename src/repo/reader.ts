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

/** A file opened for reading: the handle's own `fstat` said it is a regular file of `size` bytes. */
export interface OpenedFile {
  handle: FileHandle;
  path: string;
  size: number;
}

type Opened = OpenedFile | { reason: SkipReason };

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
  if (!isInside(root, real)) return { reason: 'symlink_outside_root' };
  const target = relativeToRoot(root, real);
  if (hasVcsSegment(target)) return { reason: 'vcs_dir' };
  if (secretFiles.isSecret(target)) return { reason: 'secret_file' };
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
  const cut = await cutToTokens(decoded.text, Math.max(0, maxTokens - MARKER_TOKENS));
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
  remainingTokens: number;
  totalBytesShown: number;
  totalTokens: number;
}

export function createReadCursor(budget: ReadBudget): ReadCursor {
  return {
    perFile: nonNegative(budget.perFileBytes),
    perFileTokens: tokenLimit(budget.perFileTokens),
    remaining: nonNegative(budget.totalBytes),
    remainingTokens: tokenLimit(budget.totalTokens),
    totalBytesShown: 0,
    totalTokens: 0,
  };
}

/**
 * The start of an opened file: what the cursor lets it show (and at least `minBytes`, for a byte-order mark or a
 * sniff), never more than the file holds. Nothing is charged yet.
 */
export function readHead(file: OpenedFile, cursor: ReadCursor, minBytes = BOM_PROBE_BYTES): Promise<Buffer> {
  const limit = Math.min(cursor.perFile, cursor.remaining);
  return readPrefix(file.handle, Math.min(file.size, Math.max(limit, minBytes, BOM_PROBE_BYTES)));
}

/** The file as shown from its `head` (decoded, cut to the byte and token budgets, marked), charged to the cursor. */
export async function showHead(file: OpenedFile, head: Buffer, cursor: ReadCursor): Promise<ReadFileResult> {
  const { path, size } = file;
  const limit = Math.min(cursor.perFile, cursor.remaining);
  let decoded = decodePrefix(head, limit, size);
  const maxTokens = Math.min(cursor.perFileTokens, cursor.remainingTokens);
  if (Number.isFinite(maxTokens)) decoded = await fitTokens(head, decoded, size, maxTokens);
  const truncated = decoded.bytesUsed < size;
  const content = truncated ? decoded.text + formatTruncationMarker(decoded.bytesUsed, size) : decoded.text;
  const tokens = await countTokens(content);
  cursor.remaining -= decoded.bytesUsed;
  cursor.remainingTokens = Math.max(0, cursor.remainingTokens - tokens);
  cursor.totalBytesShown += decoded.bytesUsed;
  cursor.totalTokens += tokens;
  return { path, size, content, truncated, bytesShown: decoded.bytesUsed, tokens, encoding: decoded.encoding };
}

/**
 * Reads already-validated paths (relative to `root`) in order, within the budget: each file shows at most
 * `perFileBytes` (and `perFileTokens`), all files together at most `totalBytes` (and `totalTokens`). Only the
 * bytes to be shown are read. A file cut short carries {@link formatTruncationMarker}; once a total is spent,
 * later files still appear, with no content. Every file reports its estimated tokens.
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
  return { files, skipped: skips.toArray(), totalBytesShown: cursor.totalBytesShown, totalTokens: cursor.totalTokens };
}
