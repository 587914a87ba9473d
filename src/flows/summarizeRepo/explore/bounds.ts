/** The bounds of one exploration, and how each is said to the model and to the user. */
import { ModelInputError } from '../../../errors.js';
import type { EndReason, ExploreState } from './callLog.js';
import { callCount } from './callLog.js';

export interface ExploreBounds {
  /** Tool calls per summary (every `tool_use` the model sends counts, refused ones too). */
  toolCalls: number;
  /** Model turns, the final answer included. */
  rounds: number;
  /** Bytes of tool results shown to the model, all calls together. */
  bytes: number;
  /** Wall time from the first round. */
  timeMs: number;
}

export const DEFAULT_EXPLORE_BOUNDS: Readonly<ExploreBounds> = Object.freeze({
  toolCalls: 12,
  rounds: 6,
  bytes: 64 * 1024,
  timeMs: 120_000,
});

/** Each tool result shows at most this many bytes. */
export const PER_CALL_BYTES = 8 * 1024;
/** `tool_use` blocks one answer may carry; more is an unusable answer. */
export const MAX_CALLS_PER_ANSWER = 8;
/** Verbatim repeats of an earlier call before the exploration is ended. */
export const MAX_REPEATS = 3;
/** Below this many bytes left, no tool result fits: the budget counts as spent. */
const MIN_RESULT_BYTES = 256;

/** The bound the exploration has reached before the next request, if any (checked in this order). */
export function reachedBound(
  state: ExploreState,
  shown: { bytes: number; repeats: number },
  bounds: ExploreBounds,
  now: number,
): Exclude<EndReason, 'model'> | undefined {
  // The most telling reason first: a model going round in circles, then what it spent.
  if (shown.repeats >= MAX_REPEATS) return 'repeats';
  if (callCount(state) >= bounds.toolCalls) return 'tool_calls';
  if (shown.bytes >= bounds.bytes - MIN_RESULT_BYTES) return 'bytes';
  if (state.turns.length >= bounds.rounds - 1) return 'rounds';
  if (now - state.t0 >= bounds.timeMs) return 'time';
  return undefined;
}

/** Why the exploration ended, in words. */
export function describeEnd(reason: EndReason, bounds: ExploreBounds): string {
  switch (reason) {
    case 'model':
      return 'the model, when it had seen enough';
    case 'tool_calls':
      return `the bound of ${bounds.toolCalls} tool calls`;
    case 'rounds':
      return `the bound of ${bounds.rounds} rounds`;
    case 'bytes':
      return `the budget of ${Math.round(bounds.bytes / 1024)} KiB of tool results`;
    case 'time':
      return `the time bound of ${Math.round(bounds.timeMs / 1000)} s`;
    case 'repeats':
      return `${MAX_REPEATS} repeated calls`;
  }
}

/** Fills in defaults and checks every value (positive integers). */
export function resolveBounds(overrides: Partial<ExploreBounds> = {}): ExploreBounds {
  const bounds = { ...DEFAULT_EXPLORE_BOUNDS };
  for (const key of Object.keys(DEFAULT_EXPLORE_BOUNDS) as (keyof ExploreBounds)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ModelInputError('config_invalid', `explore bound ${key} must be a positive integer`);
    bounds[key] = value;
  }
  return bounds;
}
