/**
 * Reading a small input file (a workflow, an audit report, scripted answers) safely: only a regular
 * file, never more than the limit (checked before reading, and enforced while reading), and only
 * valid UTF-8 (a leading byte order mark is dropped). A FIFO or a device never blocks the reader.
 */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export type InputText = { ok: true; text: string } | { ok: false; problem: string; cause?: unknown };

const NON_BLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function kindProblem(stats: { isFile(): boolean; isDirectory(): boolean }): string | undefined {
  if (stats.isDirectory()) return 'is a directory, not a file';
  if (!stats.isFile()) return 'is not a regular file';
  return undefined;
}

/** Decodes bytes as UTF-8, strictly; undefined when they are not UTF-8. A BOM is removed. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export async function readInputFile(path: string, maxBytes: number): Promise<InputText> {
  let size: number;
  try {
    const stats = await stat(path);
    const problem = kindProblem(stats);
    if (problem !== undefined) return { ok: false, problem };
    size = stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, problem: code === 'ENOENT' ? 'does not exist' : 'cannot be read', cause: error };
  }
  if (size > maxBytes) return { ok: false, problem: `is larger than ${maxBytes} bytes` };
  let handle;
  try {
    // Non-blocking, and checked again on the open handle: the path may have been swapped since the stat.
    handle = await open(path, NON_BLOCKING);
  } catch (error) {
    return { ok: false, problem: 'cannot be read', cause: error };
  }
  try {
    const problem = kindProblem(await handle.stat());
    if (problem !== undefined) return { ok: false, problem };
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { ok: false, problem: `is larger than ${maxBytes} bytes` };
    const text = decodeUtf8(buffer.subarray(0, length));
    return text === undefined ? { ok: false, problem: 'is not UTF-8' } : { ok: true, text };
  } catch (error) {
    return { ok: false, problem: 'cannot be read', cause: error };
  } finally {
    await handle.close();
  }
}
