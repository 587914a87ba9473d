/**
 * One self-erasing progress line on stderr for `summarize`: files listed, candidates inspected, files read, and
 * while a model call runs, which model is asked for which step and for how long ("asking openai:gpt-5.4-mini (pick,
 * 4.2 s)…"). Only on a terminal; piped or redirected stderr gets one plain line as each model call starts instead
 * (`modelCallReporter`), unless `--quiet`.
 */
import type { Logger } from '../logger.js';
import type { ModelCallObserver } from '../models/observedPlan.js';
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
  /** A model call started: the line says so, with its elapsed time, until the function returned is called. */
  modelCall(model: string, key: string): () => void;
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
  /** Calls `redraw` every `ms` until the function returned is called; default an unreferenced interval. */
  every?: (ms: number, redraw: () => void) => () => void;
}

/** How often the elapsed time of a model call is redrawn. */
const MODEL_TICK_MS = 200;

const STEP_NAMES: Readonly<Record<string, string>> = { pick_files: 'pick', summary: 'summary', explore: 'explore' };

/** "asking MODEL (pick, 4.2 s)…"; without an elapsed time, "asking MODEL (pick)…". */
export function describeModelCall(model: string, key: string, elapsedMs?: number): string {
  const step = STEP_NAMES[key] ?? key;
  const time = elapsedMs === undefined ? '' : `, ${(elapsedMs / 1000).toFixed(1)} s`;
  return `asking ${model} (${step}${time})…`;
}

function everyInterval(ms: number, redraw: () => void): () => void {
  const timer = setInterval(redraw, ms);
  timer.unref();
  return () => clearInterval(timer);
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
    modelCall(model, key) {
      const started = now();
      const draw = (): void => {
        drawn = true;
        stream.write(`${CLEAR_LINE}${describeModelCall(model, key, now() - started)}`);
      };
      draw();
      const stop = (options.every ?? everyInterval)(MODEL_TICK_MS, draw);
      return () => {
        stop();
        done();
      };
    },
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

/**
 * What shows model calls: the progress line on a terminal; otherwise one plain line on the logger as each call
 * starts (the meter's own line follows when it ends), none when `quiet`.
 */
export function modelCallReporter(
  progress: ProgressLine | undefined,
  logger: Logger,
  quiet: boolean,
): ModelCallObserver | undefined {
  if (progress !== undefined) return { started: (model, key) => progress.modelCall(model, key) };
  if (quiet) return undefined;
  return {
    started(model, key) {
      logger.info(describeModelCall(model, key));
      return () => {};
    },
  };
}
