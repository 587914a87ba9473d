/**
 * The host's audit trail: one JSON line per decision about an embedded request (who asked, which
 * input, what was decided, the size and the model; in a tool loop the tools offered, the tool choice,
 * the calls made and asked for), never prompt or response text. Only the
 * `AuditEntry` fields are written, in a fixed order, whatever else a caller passes; strings are cut
 * to `MAX_AUDIT_STRING` characters. Writing never throws at `record`: the first failure is kept and
 * thrown by `close()`.
 *
 * A file is bounded: when a line would take it past `maxBytes` (default `DEFAULT_AUDIT_MAX_BYTES`), it
 * is rotated — renamed to `FILE.1` (replacing the one before) — and a new `FILE` is started, so the
 * trail on disk never holds more than twice `maxBytes`, the newest lines always kept.
 */
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

import { ModelInputError } from '../errors.js';
import type { AuditEntry } from './types.js';
import { terminalSafeJson } from '../protocol/sanitize.js';

export interface AuditLog {
  /** Appends one line (the time is added); never throws. */
  record(entry: Omit<AuditEntry, 'time'>): void;
  /** Waits for every line to be written; throws the first write failure, if any. */
  close(): Promise<void>;
}

export type AuditTarget =
  | {
      file: string;
      /** The most the file holds before it is rotated to `FILE.1`; default `DEFAULT_AUDIT_MAX_BYTES`. */
      maxBytes?: number;
    }
  | { stream: NodeJS.WritableStream };

/** The audit file's size at which it is rotated, unless told otherwise. */
export const DEFAULT_AUDIT_MAX_BYTES = 64 * 1024 * 1024;

/** A string field longer than this is cut (with an ellipsis). */
export const MAX_AUDIT_STRING = 256;

/** The order of the keys on a line; nothing else is ever written. */
const STRING_KEYS = ['server', 'serverKey', 'principal', 'tool'] as const;
const TAIL_STRING_KEYS = ['key', 'method', 'decision', 'model'] as const;
const NUMBER_KEYS = ['bytes', 'tokens', 'count'] as const;
const TOOL_KEYS = ['tools', 'toolChoice', 'toolCalls', 'toolUse'] as const;

function cut(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length <= MAX_AUDIT_STRING) return value;
  const head = value.slice(0, MAX_AUDIT_STRING - 1);
  // Never end on half a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** One audit line (with its newline) from whitelisted fields of `entry`. */
export function formatAuditLine(entry: Omit<AuditEntry, 'time'>, time: string): string {
  const source = entry as unknown as Record<string, unknown>;
  const line: Record<string, string | number> = { time };
  const put = (name: string, value: string | number | undefined) => {
    if (value !== undefined) line[name] = value;
  };
  for (const name of STRING_KEYS) put(name, cut(source[name]));
  put('round', count(source.round));
  for (const name of TAIL_STRING_KEYS) put(name, cut(source[name]));
  for (const name of NUMBER_KEYS) put(name, count(source[name]));
  put('reason', cut(source.reason));
  for (const name of TOOL_KEYS) put(name, cut(source[name]));
  return `${terminalSafeJson(line)}\n`;
}

interface Sink {
  write(line: string): Promise<void>;
  close(): Promise<void>;
}

async function openForAppend(file: string): Promise<FileHandle> {
  try {
    return await open(file, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const why = code === 'ENOENT' ? `its directory ${dirname(file)} does not exist` : `cannot be opened (${code})`;
    throw new ModelInputError('config_invalid', `audit log ${file}: ${why}`, { cause: error });
  }
}

async function fileSink(file: string, maxBytes: number): Promise<Sink> {
  let handle = await openForAppend(file);
  let size = (await handle.stat()).size;
  return {
    write: async (line) => {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) {
        await handle.close();
        await rename(file, `${file}.1`);
        handle = await openForAppend(file);
        size = 0;
      }
      await handle.write(line);
      size += bytes;
    },
    close: () => handle.close(),
  };
}

function streamSink(stream: NodeJS.WritableStream, fail: (error: unknown) => void): Sink {
  // While the log is open its stream's errors are ours to keep (an unheard 'error' would end the process).
  stream.on('error', fail);
  return {
    write: (line) =>
      new Promise<void>((resolve) => {
        stream.write(line, (error) => {
          if (error) fail(error);
          resolve();
        });
      }),
    // The stream is the caller's (often stderr): flushed, never ended.
    close: async () => {
      stream.removeListener('error', fail);
    },
  };
}

/**
 * Opens an audit log; a file is opened for append (created 0600), its directory must exist, and it is
 * rotated at `maxBytes` (a whole number >= 1024).
 */
export async function createAuditLog(target: AuditTarget, clock: () => Date = () => new Date()): Promise<AuditLog> {
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
  };
  const name = 'file' in target ? target.file : 'stream';
  let sink: Sink;
  if ('file' in target) {
    const maxBytes = target.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1024) {
      throw new ModelInputError('config_invalid', `audit log maxBytes must be a whole number >= 1024, got ${maxBytes}`);
    }
    sink = await fileSink(target.file, maxBytes);
  } else {
    sink = streamSink(target.stream, fail);
  }
  let pending: Promise<void> = Promise.resolve();
  let closed = false;

  return {
    record(entry) {
      if (closed || failure !== undefined) return;
      let line: string;
      try {
        line = formatAuditLine(entry, clock().toISOString());
      } catch (error) {
        fail(error);
        return;
      }
      pending = pending.then(() => (failure === undefined ? sink.write(line) : undefined)).catch(fail);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pending;
      await sink.close().catch(fail);
      if (failure !== undefined) {
        const { error } = failure;
        const detail = error instanceof Error ? error.message : String(error);
        throw new ModelInputError('config_invalid', `audit log ${name}: a line could not be written (${detail})`, {
          cause: error,
        });
      }
    },
  };
}

/** An audit log that writes nothing. */
export const silentAuditLog: AuditLog = Object.freeze({
  record() {},
  async close() {},
});
