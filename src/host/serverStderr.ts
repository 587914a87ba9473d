/**
 * Where a stdio server's stderr goes (`--server-stderr`). The server never gets the user's terminal by default:
 *
 * - `prefixed` (the default): captured and shown line by line, each line prefixed (`server stderr │ `) with every
 *   invisible character written out, so nothing a server writes can pass for the host's own output, move the
 *   cursor or draw over a dialog. While a dialog holds the terminal (terminalGate.ts), lines wait and are shown
 *   when it closes.
 * - `log:FILE`: appended to FILE, as the server wrote it.
 * - `ignore`: discarded.
 * - `inherit`: the host's own stderr, as is — the server can then draw on the terminal (and read from it, when
 *   stderr is one): for servers you trust, when debugging.
 */
import { createWriteStream, openSync } from 'node:fs';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

import { ModelInputError } from '../errors.js';
import { revealedCut } from '../protocol/sanitize.js';
import type { TerminalGate } from './terminalGate.js';

export type ServerStderrMode =
  { kind: 'prefixed' } | { kind: 'inherit' } | { kind: 'ignore' } | { kind: 'log'; file: string };

export const SERVER_STDERR_PREFIX = 'server stderr │ ';

export const SERVER_STDERR_LIMITS = {
  /** Characters of one shown line (a longer one is cut, counting the rest). */
  line: 2000,
  /** Characters a line may grow to without a line break before it is shown anyway. */
  pending: 8192,
  /** Lines kept while a dialog is open; later ones are counted, not kept. */
  held: 1000,
} as const;

/** Parses `--server-stderr prefixed|inherit|ignore|log:FILE`; anything else is a usage error. */
export function parseServerStderr(value: string): ServerStderrMode {
  if (value === 'prefixed' || value === 'inherit' || value === 'ignore') return { kind: value };
  if (value.startsWith('log:') && value.length > 'log:'.length) return { kind: 'log', file: value.slice(4) };
  throw new ModelInputError(
    'usage',
    `--server-stderr must be prefixed, inherit, ignore or log:FILE (got ${JSON.stringify(value.slice(0, 60))})`,
  );
}

export interface PrefixedStderrOptions {
  output: NodeJS.WritableStream;
  /** While held, lines wait. */
  terminal?: TerminalGate;
  prefix?: string;
}

/** A stream that shows what is written to it as prefixed, revealed lines on `output` (see the file comment). */
export function createPrefixedStderr(options: PrefixedStderrOptions): Writable {
  const { output, terminal } = options;
  const prefix = options.prefix ?? SERVER_STDERR_PREFIX;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const held: string[] = [];
  let dropped = 0;

  function show(line: string): void {
    const shown = `${prefix}${revealedCut(line, SERVER_STDERR_LIMITS.line)}\n`;
    if (terminal?.isHeld() !== true) {
      output.write(shown);
      return;
    }
    if (held.length < SERVER_STDERR_LIMITS.held) held.push(shown);
    else dropped++;
  }

  function flushHeld(): void {
    if (terminal?.isHeld() === true) return;
    for (const line of held.splice(0)) output.write(line);
    if (dropped > 0) output.write(`${prefix}… ${dropped} more line(s) not kept while a dialog was open\n`);
    dropped = 0;
  }

  const unsubscribe = terminal?.onRelease(flushHeld);

  function take(text: string): void {
    pending += text;
    const lines = pending.split(/\r\n|\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) show(line);
    if (pending.length > SERVER_STDERR_LIMITS.pending) {
      show(pending);
      pending = '';
    }
  }

  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
      callback();
    },
    final(callback) {
      take(decoder.end());
      if (pending !== '') show(pending);
      pending = '';
      unsubscribe?.();
      flushHeld();
      callback();
    },
  });
}

/** What the transport is given for a mode, and how to close it when the host is done with the server. */
export interface ServerStderrTarget {
  stderr: 'ignore' | 'inherit' | NodeJS.WritableStream;
  close(): Promise<void>;
}

/** Opens FILE for appending now, so a path that cannot be written fails at start-up (`config_invalid`). */
function openLog(file: string): number {
  try {
    return openSync(file, 'a', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ModelInputError('config_invalid', `--server-stderr log:${file}: cannot open it (${code})`, {
      cause: error,
    });
  }
}

/** Opens the destination of `mode`: the log file (appended), or the prefixed view on `output`. */
export function openServerStderr(
  mode: ServerStderrMode,
  options: { output: NodeJS.WritableStream; terminal?: TerminalGate },
): ServerStderrTarget {
  if (mode.kind === 'inherit' || mode.kind === 'ignore') return { stderr: mode.kind, close: async () => {} };
  const stream =
    mode.kind === 'log'
      ? createWriteStream('', { fd: openLog(mode.file) })
      : createPrefixedStderr({
          output: options.output,
          ...(options.terminal !== undefined && { terminal: options.terminal }),
        });
  return {
    stderr: stream,
    close: () =>
      new Promise((resolve) => {
        stream.end(() => resolve());
        stream.once('error', () => resolve());
      }),
  };
}
