import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import type { Limiter } from './limit.js';
import { absoluteOf, hasVcsSegment, isInside, relativeToRoot } from './paths.js';
import type { SecretFileFilter } from './secrets/secretFiles.js';
import type { RepoFile, SkipReason } from './types.js';

/** Flags for opening a file to read: never block on a FIFO swapped in, never follow a final symlink. */
export const SAFE_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/** Extensions (lower case, without the dot) of formats that are binary; no need to open them. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif bmp ico icns webp tif tiff psd heic avif ' +
    'pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'zip gz tgz bz2 xz 7z rar tar zst lz4 lzma br ' +
    'jar war ear class dex apk ipa deb rpm msi dmg iso img ' +
    'exe dll so dylib lib a o obj ko node wasm pyc pyo pyd beam ' +
    'woff woff2 ttf otf eot ' +
    'mp3 mp4 m4a m4v mov avi mkv webm wav flac ogg aac wma wmv flv swf ' +
    'bin db sqlite sqlite3 npy npz pkl parquet p12 pfx'
  ).split(' '),
);

/** One test for all extensions, case-insensitive: no string is cut or lower-cased per listed path. */
const BINARY_EXTENSION_PATTERN = new RegExp(`\\.(?:${[...BINARY_EXTENSIONS].join('|')})$`, 'i');

/** Whether the last segment has a known binary extension (`.png`, `.ZIP`…; not a dot-file like `.a`). */
export function hasBinaryExtension(relative: string): boolean {
  return BINARY_EXTENSION_PATTERN.test(relative) && relative.lastIndexOf('.') > relative.lastIndexOf('/') + 1;
}

/** Whether a buffer starts with a UTF-16 byte-order mark (such files are text even though they hold NULs). */
export function hasUtf16Bom(head: Uint8Array): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

/** The sniff's verdict on a file's first bytes: a NUL byte makes it binary, unless it starts with a UTF-16 BOM. */
export function isBinaryHead(head: Uint8Array): boolean {
  return !hasUtf16Bom(head) && head.includes(0);
}

type SniffResult = 'text' | 'binary' | 'special_file' | 'unreadable';

/** Looks for a NUL byte in the first `sniffBytes` bytes of a regular file. */
export async function sniffFile(absolute: string, sniffBytes: number): Promise<SniffResult> {
  let handle;
  try {
    handle = await open(absolute, SAFE_OPEN_FLAGS);
  } catch {
    return 'unreadable';
  }
  try {
    if (!(await handle.stat()).isFile()) return 'special_file';
    const buffer = Buffer.alloc(Math.max(0, sniffBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    return isBinaryHead(head) ? 'binary' : 'text';
  } catch {
    return 'unreadable';
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export interface InspectContext {
  /** Realpath of the repository root. */
  root: string;
  maxFileBytes: number;
  sniffBytes: number;
  limit: Limiter;
  secretFiles: SecretFileFilter;
  /** Checked before each inspection: an aborted one rejects with the abort reason. */
  signal?: AbortSignal;
}

export type InspectVerdict = { kind: 'file'; file: RepoFile } | { kind: 'skip'; reason: SkipReason; example: string };

const skip = (reason: SkipReason, example: string): InspectVerdict => ({ kind: 'skip', reason, example });

/** The cheap filters in order: size cap (from the stat already made), binary extension, then a NUL sniff. */
async function checkFile(
  ctx: InspectContext,
  relative: string,
  absolute: string,
  size: number,
): Promise<InspectVerdict> {
  if (size > ctx.maxFileBytes) return skip('too_large', relative);
  if (hasBinaryExtension(relative)) return skip('binary', relative);
  const sniff = await ctx.limit(() => sniffFile(absolute, ctx.sniffBytes));
  if (sniff === 'text') return { kind: 'file', file: { path: relative, size } };
  return skip(sniff, relative);
}

async function checkSymlink(ctx: InspectContext, relative: string): Promise<InspectVerdict> {
  let real: string;
  let stats: Stats;
  try {
    real = await ctx.limit(() => realpath(absoluteOf(ctx.root, relative)));
    if (!isInside(ctx.root, real)) return skip('symlink_outside_root', relative);
    stats = await ctx.limit(() => stat(real));
  } catch {
    return skip('unreadable', relative);
  }
  // A link into `.git/`, or to a secret-bearing file, would expose what the listing never shows.
  const target = relativeToRoot(ctx.root, real);
  if (hasVcsSegment(target)) return skip('vcs_dir', relative);
  if (ctx.secretFiles.isSecret(target)) return skip('secret_file', relative);
  // Directories behind links are never entered (no cycles); a link to a file is read under the link's path.
  if (!stats.isFile()) return skip('special_file', relative);
  return checkFile(ctx, relative, real, stats.size);
}

/**
 * Decides whether one listed path (POSIX, relative to the root) is a readable text file: a regular file, or a
 * symlink whose realpath is a regular file inside the root (outside -> `symlink_outside_root`, into `.git` ->
 * `vcs_dir`), within the size cap, without a known binary extension, without a NUL byte in its first bytes
 * (unless it starts with a UTF-16 byte-order mark). Directories, sockets, FIFOs and devices are `special_file` and
 * never opened; any fs error (a file deleted since the listing included) is `unreadable`.
 */
export async function inspectPath(ctx: InspectContext, relative: string): Promise<InspectVerdict> {
  if (ctx.secretFiles.isSecret(relative)) return skip('secret_file', relative);
  ctx.signal?.throwIfAborted();
  let stats: Stats;
  try {
    stats = await ctx.limit(() => lstat(absoluteOf(ctx.root, relative)));
  } catch {
    return skip('unreadable', relative);
  }
  if (stats.isSymbolicLink()) return checkSymlink(ctx, relative);
  if (stats.isFile()) return checkFile(ctx, relative, absoluteOf(ctx.root, relative), stats.size);
  return skip('special_file', relative);
}
