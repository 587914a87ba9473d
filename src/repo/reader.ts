import type { FileHandle } from 'node:fs/promises';
import { open, realpath } from 'node:fs/promises';
import { SAFE_OPEN_FLAGS } from './classify.js';
import { BOM_PROBE_BYTES, decodePrefix } from './decode.js';
import { absoluteOf, hasVcsSegment, isInside, normalizeRelPath, relativeToRoot } from './paths.js';
import { SkipCollector } from './skips.js';
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

type Opened = { handle: FileHandle; path: string } | { reason: SkipReason };

/** Re-checks confinement at read time: the realpath must stay inside the root and the target be a regular file. */
async function openConfined(root: string, path: string): Promise<Opened> {
  let real: string;
  try {
    real = await realpath(absoluteOf(root, path));
  } catch {
    return { reason: 'unreadable' };
  }
  if (!isInside(root, real)) return { reason: 'symlink_outside_root' };
  if (hasVcsSegment(relativeToRoot(root, real))) return { reason: 'vcs_dir' };
  let handle: FileHandle;
  try {
    handle = await open(real, SAFE_OPEN_FLAGS);
  } catch {
    return { reason: 'unreadable' };
  }
  try {
    if ((await handle.stat()).isFile()) return { handle, path };
  } catch {
    // fall through: closed below
  }
  await handle.close().catch(() => undefined);
  return { reason: 'special_file' };
}

/**
 * Reads already-validated paths (relative to `root`) in order, within the budget: each file shows at most
 * `perFileBytes`, all files together at most `totalBytes`. Only the bytes to be shown are read. A file cut short
 * carries {@link formatTruncationMarker}; once the total is spent, later files still appear, with no content.
 */
export async function readFiles(root: string, paths: readonly string[], budget: ReadBudget): Promise<ReadResult> {
  const perFile = nonNegative(budget.perFileBytes);
  let remaining = nonNegative(budget.totalBytes);
  const files: ReadFileResult[] = [];
  const skips = new SkipCollector();
  const seen = new Set<string>();
  let totalBytesShown = 0;

  for (const requested of paths) {
    const path = normalizeRelPath(requested);
    if (path === undefined || path === '') {
      skips.add('unreadable', requested);
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    const opened = await openConfined(root, path);
    if ('reason' in opened) {
      skips.add(opened.reason, path);
      continue;
    }
    try {
      const size = (await opened.handle.stat()).size;
      const limit = Math.min(perFile, remaining);
      const head = await readPrefix(opened.handle, Math.min(size, Math.max(limit, BOM_PROBE_BYTES)));
      const decoded = decodePrefix(head, limit, size);
      const truncated = decoded.bytesUsed < size;
      files.push({
        path,
        size,
        content: truncated ? decoded.text + formatTruncationMarker(decoded.bytesUsed, size) : decoded.text,
        truncated,
        bytesShown: decoded.bytesUsed,
        encoding: decoded.encoding,
      });
      remaining -= decoded.bytesUsed;
      totalBytesShown += decoded.bytesUsed;
    } catch {
      skips.add('unreadable', path);
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }
  return { files, skipped: skips.toArray(), totalBytesShown };
}
