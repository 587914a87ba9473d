import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { IgnoreRules } from './ignoreRules.js';
import type { Limiter } from './limit.js';
import { absoluteOf, hasVcsSegment, isInside, relativeToRoot, VCS_DIR_NAME } from './paths.js';
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

export function hasBinaryExtension(relative: string): boolean {
  const ext = path.posix.extname(relative);
  return ext !== '' && BINARY_EXTENSIONS.has(ext.slice(1).toLowerCase());
}

/** Whether a buffer starts with a UTF-16 byte-order mark (such files are text even though they hold NULs). */
export function hasUtf16Bom(head: Uint8Array): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
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
    return !hasUtf16Bom(head) && head.includes(0) ? 'binary' : 'text';
  } catch {
    return 'unreadable';
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export interface ScanContext {
  /** Realpath of the repository root. */
  root: string;
  maxFileBytes: number;
  sniffBytes: number;
  limit: Limiter;
}

export type EntryVerdict =
  { kind: 'file'; file: RepoFile } | { kind: 'directory' } | { kind: 'skip'; reason: SkipReason; example: string };

const skip = (reason: SkipReason, example: string): EntryVerdict => ({ kind: 'skip', reason, example });

async function checkFile(ctx: ScanContext, relative: string, absolute: string, size: number): Promise<EntryVerdict> {
  if (size > ctx.maxFileBytes) return skip('too_large', relative);
  if (hasBinaryExtension(relative)) return skip('binary', relative);
  const sniff = await ctx.limit(() => sniffFile(absolute, ctx.sniffBytes));
  if (sniff === 'text') return { kind: 'file', file: { path: relative, size } };
  return skip(sniff, relative);
}

async function checkSymlink(ctx: ScanContext, relative: string): Promise<EntryVerdict> {
  let real: string;
  let target: Stats;
  try {
    real = await ctx.limit(() => realpath(absoluteOf(ctx.root, relative)));
    if (!isInside(ctx.root, real)) return skip('symlink_outside_root', relative);
    target = await ctx.limit(() => stat(real));
  } catch {
    return skip('unreadable', relative);
  }
  // A link into `.git/` would expose what the walk never shows.
  if (hasVcsSegment(relativeToRoot(ctx.root, real))) return skip('vcs_dir', relative);
  // Only real directories are descended into (no cycles); a link to a file is listed under the link's path.
  if (!target.isFile()) return skip('special_file', relative);
  return checkFile(ctx, relative, real, target.size);
}

/**
 * Decides what one directory entry is, given its `lstat` and the ignore rules of its parent directory. The walk
 * and `resolveCandidate` both go through here, so a listing and a single-path check always agree.
 */
export async function classifyEntry(
  ctx: ScanContext,
  relative: string,
  stats: Stats,
  rules: IgnoreRules,
): Promise<EntryVerdict> {
  const isDirectory = stats.isDirectory();
  if (path.posix.basename(relative) === VCS_DIR_NAME) return skip('vcs_dir', isDirectory ? `${relative}/` : relative);
  if (rules.ignores(relative, isDirectory)) return skip('ignored', isDirectory ? `${relative}/` : relative);
  if (isDirectory) return { kind: 'directory' };
  if (stats.isSymbolicLink()) return checkSymlink(ctx, relative);
  if (stats.isFile()) return checkFile(ctx, relative, absoluteOf(ctx.root, relative), stats.size);
  return skip('special_file', relative);
}
