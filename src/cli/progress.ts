/**
 * One self-erasing progress line on stderr for `summarize` on a large tree: files listed, candidates
 * inspected, files read. Only on a terminal: piped or redirected stderr stays quiet, so logs and tests see
 * nothing.
 */
import type { Logger } from '../logger.js';
import type { RepoProgress } from '../repo/index.js';

/** Redraws at most this often, except for the events that end a phase. */
const MIN_INTERVAL_MS = 100;
const CLEAR_LINE = '\r\u001b[2K';

export interface ProgressStream {
  isTTY?: boolean;
  write(chunk: string): unknown;
}

export interface ProgressLine {
  update(event: RepoProgress): void;
  /** Erases the line (if one was drawn). */
  done(): void;
  /** A logger whose lines first erase the progress line, so they never end up glued to it. */
  around(logger: Logger): Logger;
}

export interface ProgressLineOptions {
  /** `false` turns progress off whatever the stream is (e.g. `--quiet`). */
  enabled?: boolean;
  /** The clock, for tests. */
  now?: () => number;
}

const count = (value: number): string => value.toLocaleString('en-US');

/** The text for one event. */
export function describeProgress(event: RepoProgress): string {
  switch (event.phase) {
    case 'listing':
      return `listing… ${count(event.files)} files`;
    case 'listed':
      return `listed ${count(event.files)} files (${event.source.kind === 'git' ? 'git ls-files' : 'walker'})`;
    case 'inspecting':
      return `ranking… inspected ${count(event.done)} candidates`;
    case 'reading':
      return `reading files ${event.done}/${event.of}`;
  }
}

/** A progress line on `stream`, or `undefined` when the stream is not a terminal or progress is off. */
export function createProgressLine(
  stream: ProgressStream,
  options: ProgressLineOptions = {},
): ProgressLine | undefined {
  if (options.enabled === false || stream.isTTY !== true) return undefined;
  const now = options.now ?? Date.now;
  let drawn = false;
  let last = Number.NEGATIVE_INFINITY;
  const done = (): void => {
    if (drawn) stream.write(CLEAR_LINE);
    drawn = false;
  };
  return {
    update(event) {
      const final = event.phase === 'listed' || (event.phase === 'reading' && event.done === event.of);
      const time = now();
      if (!final && time - last < MIN_INTERVAL_MS) return;
      last = time;
      drawn = true;
      stream.write(`${CLEAR_LINE}${describeProgress(event)}`);
    },
    done,
    around(logger) {
      return {
        info: (message) => {
          done();
          logger.info(message);
        },
        warn: (message, kind) => {
          done();
          logger.warn(message, kind);
        },
      };
    },
  };
}
