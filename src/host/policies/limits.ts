import { ModelInputError } from '../../errors.js';

/**
 * The per-request limits: how large one embedded request, and the host model's answer to it, may
 * be. A request past any of them is refused (`request_invalid`) before a model or a person sees it;
 * an answer past `maxResponseBytes` is not sent back (`response_invalid`).
 */

export interface RequestLimits {
  /** The largest `maxTokens` a sampling request may ask for. */
  maxTokens: number;
  /** UTF-8 bytes of the JSON of `messages` plus `systemPrompt` (and of elicitation params). */
  maxMessageBytes: number;
  /** UTF-8 bytes of `systemPrompt`. */
  maxSystemPromptBytes: number;
  /** Messages in one sampling request. */
  maxMessages: number;
  /** UTF-8 bytes of the JSON of one answer sent back. */
  maxResponseBytes: number;
  /** UTF-8 bytes of a server's `requestState` the host carries to the retry. */
  maxRequestStateBytes: number;
  /** Embedded requests in one `input_required` round; a round with more is refused whole. */
  maxInputRequests: number;
}

export const DEFAULT_REQUEST_LIMITS: Readonly<RequestLimits> = Object.freeze({
  maxTokens: 4096,
  maxMessageBytes: 256 * 1024,
  maxSystemPromptBytes: 16 * 1024,
  maxMessages: 64,
  maxResponseBytes: 128 * 1024,
  maxRequestStateBytes: 256 * 1024,
  maxInputRequests: 16,
});

/** UTF-8 bytes of an elicitation's `message`: what a dialog can show. Not configurable. */
export const MAX_ELICITATION_MESSAGE_BYTES = 4 * 1024;

/**
 * `defaults` with the caller's `overrides` applied, checked: an override left `undefined` keeps the
 * default (it never turns a limit off), and every other value must be a number > 0 (`Infinity`
 * turns one off on purpose) naming a known limit — a misspelt or NaN limit would otherwise leave the
 * host more open than its caller meant. Throws `ModelInputError('config_invalid')`.
 */
export function resolveLimits<T extends object>(
  what: string,
  defaults: Readonly<T>,
  overrides: Partial<T> | undefined,
): T {
  const resolved = { ...defaults } as Record<string, unknown>;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) continue;
    if (!Object.hasOwn(defaults, name)) {
      throw new ModelInputError('config_invalid', `${what}: unknown limit '${name.slice(0, 40)}'`);
    }
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw new ModelInputError(
        'config_invalid',
        `${what}: ${name} must be a number > 0, got ${String(value).slice(0, 40)}`,
      );
    }
    resolved[name] = value;
  }
  return resolved as T;
}
