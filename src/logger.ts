/**
 * Diagnostics go to stderr (on stdio, stdout IS the protocol). A logger is injected
 * everywhere so tests can capture lines and the CLI can silence them.
 *
 * The stderr logger writes every message as one inert line: peer-supplied text inside it (a rejected
 * request's method, a principal, an error message) cannot end the line, forge another one or drive the
 * terminal (protocol/sanitize.ts). Warnings given a `kind` are throttled per kind: a hostile peer that
 * triggers one warning per request cannot flood the log.
 */
import { escapeControls } from './protocol/sanitize.js';

export interface Logger {
  info(message: string): void;
  /**
   * `kind` names a warning a peer can trigger again and again (e.g. `http_rejected`): such warnings are
   * throttled per kind, and the suppressed ones are counted in the next line written for that kind.
   */
  warn(message: string, kind?: string): void;
}

/** A logged line keeps at most this many characters of its message. */
export const MAX_LOG_MESSAGE_CHARS = 2_000;

export interface WarningThrottleOptions {
  /** Warnings of one kind written per window (default 5). */
  burst?: number;
  /** The window in milliseconds (default 60 s). */
  windowMs?: number;
  now?: () => number;
}

/**
 * Decides whether a warning of a kind is written now. Returns undefined to suppress it, or the count of
 * warnings of that kind suppressed since the last written one (0 when none).
 */
export function createWarningThrottle(options: WarningThrottleOptions = {}): (kind: string) => number | undefined {
  const burst = options.burst ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const kinds = new Map<string, { start: number; written: number; suppressed: number }>();
  return (kind) => {
    const at = now();
    let entry = kinds.get(kind);
    if (entry === undefined || at - entry.start >= windowMs) {
      const suppressed = entry?.suppressed ?? 0;
      entry = { start: at, written: 0, suppressed };
      kinds.set(kind, entry);
    }
    if (entry.written >= burst) {
      entry.suppressed++;
      return undefined;
    }
    entry.written++;
    const suppressed = entry.suppressed;
    entry.suppressed = 0;
    return suppressed;
  };
}

export interface StderrLoggerOptions {
  quiet?: boolean;
  stream?: NodeJS.WritableStream;
  throttle?: WarningThrottleOptions;
}

export function createStderrLogger(options: StderrLoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const throttle = createWarningThrottle(options.throttle);
  const line = (message: string): string => escapeControls(message, MAX_LOG_MESSAGE_CHARS);
  return {
    info: (message) => {
      if (!options.quiet) stream.write(`mcp-model-input: ${line(message)}\n`);
    },
    warn: (message, kind) => {
      const suppressed = kind === undefined ? 0 : throttle(kind);
      if (suppressed === undefined) return;
      const more = suppressed > 0 ? ` (${suppressed} more '${kind}' warnings were not logged)` : '';
      stream.write(`mcp-model-input: warning: ${line(message)}${more}\n`);
    },
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {} };
