import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/**
 * Reads a small regular file synchronously (never a FIFO, never through a final symlink), or returns `undefined`
 * (missing, not a regular file, larger than `maxBytes`, unreadable). Such files (ignore files, git's pointer files)
 * are small and few, so one blocking read is cheaper than a round trip through the thread pool.
 */
export function readSmallFile(absolute: string, maxBytes: number): string | undefined {
  // Most ignore files asked about do not exist: a failed open costs an exception, several times the cost of this
  // check, which never follows a final symbolic link (the open refuses one anyway). (A file that appears right after
  // it is read by the next call, as if this one had come a moment earlier.)
  try {
    if (lstatSync(absolute, { throwIfNoEntry: false }) === undefined) return undefined;
  } catch {
    return undefined; // a segment of the path is not a directory (ENOTDIR), or cannot be searched
  }
  let fd: number;
  try {
    fd = openSync(absolute, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(stats.size);
    let offset = 0;
    while (offset < buffer.length) {
      const read = readSync(fd, buffer, offset, buffer.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return buffer.subarray(0, offset).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
