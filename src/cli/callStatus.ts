/**
 * What `call` shows on stderr while a call runs: the state of a task the server made of it (its status and the
 * server's progress message) and the call's progress notifications. On a terminal, one spinner line redrawn in
 * place, erased whenever a dialog takes the terminal (it never draws inside the approval prompt) and before any other
 * line is written; piped or redirected, plain lines, one per change (for the same progress message with new counts, at
 * most one a second). Everything the server said passes through `terminalSafe` first.
 */
import { Writable } from 'node:stream';

import type { TerminalGate } from '../host/terminalGate.js';
import type { Logger } from '../logger.js';
import { terminalSafe } from '../protocol/sanitize.js';
import type { ProgressStream } from './progress.js';

const CLEAR_LINE = '\r\u001b[2K';
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;
/** Plain progress lines: at most one per this many milliseconds. */
const PLAIN_PROGRESS_MS = 1_000;
/** Longest server text kept before it is fitted to the line. */
const MAX_TEXT_CHARS = 500;
const DEFAULT_COLUMNS = 80;

export interface CallStatusOptions {
  stream: ProgressStream & { columns?: number };
  /** The gate the dialogs hold: the line is erased when one opens and drawn again when it closes. */
  terminal: TerminalGate;
  /** Where plain lines go when the stream is not a terminal. */
  logger: Logger;
  now?: () => number;
  /** Calls `redraw` every `ms` until the function returned is called; default an unreferenced interval. */
  every?: (ms: number, redraw: () => void) => () => void;
}

export interface TaskState {
  status: string;
  statusMessage?: string;
}

export interface ProgressState {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallStatus {
  task(task: TaskState): void;
  progress(progress: ProgressState): void;
  /** Erases the line until the next redraw (before anything else is written to the stream). */
  clear(): void;
  /** A logger whose lines first erase the status line. */
  around(logger: Logger): Logger;
  /** Erases the line and stops drawing. */
  done(): void;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export function describeTask(task: TaskState): string {
  return `task ${task.status}${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`;
}

export function describeCallProgress(progress: ProgressState): string {
  const count = progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`;
  return progress.message === undefined ? `progress ${count}` : `${progress.message} (${count})`;
}

function sameCounts(a: ProgressState, b: ProgressState | undefined): boolean {
  return b !== undefined && a.progress === b.progress && a.total === b.total;
}

/** At most `width` code points, the last one an ellipsis when cut. */
function fit(text: string, width: number): string {
  const points = Array.from(text);
  return points.length <= width ? text : `${points.slice(0, Math.max(0, width - 1)).join('')}…`;
}

function everyInterval(ms: number, redraw: () => void): () => void {
  const timer = setInterval(redraw, ms);
  timer.unref();
  return () => clearInterval(timer);
}

export function createCallStatus(options: CallStatusOptions): CallStatus {
  return options.stream.isTTY === true ? spinnerStatus(options) : plainStatus(options);
}

function spinnerStatus(options: CallStatusOptions): CallStatus {
  const { stream, terminal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  let text: string | undefined;
  let frame = 0;
  let drawn = false;
  let stopTicking: (() => void) | undefined;
  let finished = false;

  const erase = (): void => {
    if (drawn) stream.write(CLEAR_LINE);
    drawn = false;
  };
  const draw = (): void => {
    if (finished || text === undefined || terminal.isHeld()) return;
    const seconds = Math.floor((now() - started) / 1000);
    const suffix = ` (${seconds} s)`;
    const width = Math.max(10, (stream.columns ?? DEFAULT_COLUMNS) - 1);
    const spinner = FRAMES[frame++ % FRAMES.length] as string;
    const body = fit(`${spinner} ${text}`, width - suffix.length);
    stream.write(`${CLEAR_LINE}${body}${suffix}`);
    drawn = true;
  };
  const show = (next: string): void => {
    if (finished) return;
    text = terminalSafe(next, MAX_TEXT_CHARS);
    stopTicking ??= (options.every ?? everyInterval)(TICK_MS, draw);
    draw();
  };
  const unsubscribeHold = terminal.onHold(erase);
  const unsubscribeRelease = terminal.onRelease(draw);
  const done = (): void => {
    if (finished) return;
    erase();
    finished = true;
    stopTicking?.();
    unsubscribeHold();
    unsubscribeRelease();
  };
  return {
    task(task) {
      if (FINISHED.has(task.status)) done();
      else show(describeTask(task));
    },
    progress: (progress) => show(describeCallProgress(progress)),
    clear: erase,
    around(logger) {
      return {
        info: (message) => {
          erase();
          logger.info(message);
        },
        warn: (message, kind) => {
          erase();
          logger.warn(message, kind);
        },
      };
    },
    done,
  };
}

function plainStatus(options: CallStatusOptions): CallStatus {
  const { logger } = options;
  const now = options.now ?? Date.now;
  let lastTask = '';
  let lastProgress: ProgressState | undefined;
  let lastProgressAt = Number.NEGATIVE_INFINITY;
  return {
    task(task) {
      // One line per change: a task polled every second says nothing new most of the time.
      const line = terminalSafe(describeTask(task), MAX_TEXT_CHARS);
      if (line !== lastTask) logger.info(line);
      lastTask = line;
    },
    progress(progress) {
      // A new message is always written; the same message with new counts, at most once a second.
      const at = now();
      const counted = lastProgress !== undefined && progress.message === lastProgress.message;
      if (counted && (at - lastProgressAt < PLAIN_PROGRESS_MS || sameCounts(progress, lastProgress))) return;
      lastProgress = progress;
      lastProgressAt = at;
      logger.info(terminalSafe(describeCallProgress(progress), MAX_TEXT_CHARS));
    },
    clear: () => undefined,
    around: (inner) => inner,
    done: () => undefined,
  };
}

/** `stream`, with `before` called ahead of each write (a server's stderr lines erase the status line first). */
export function beforeEachWrite(stream: NodeJS.WritableStream, before: () => void): NodeJS.WritableStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      before();
      stream.write(chunk, (error) => callback(error ?? null));
    },
  });
}
