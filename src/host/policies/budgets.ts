/**
 * Decides whether one more model call fits the call's budgets: tokens and bytes per round and per
 * call (rounds of one call share the call budget). A call is reserved before the model runs, at
 * its worst case (estimated input tokens plus `maxTokens`), and settled after with what it really
 * spent. A reservation that would pass any limit is refused with `budget_exceeded`.
 */
import { ModelInputError } from '../../errors.js';
import { refuse } from './refusal.js';

export interface BudgetLimits {
  tokensPerRound: number;
  tokensPerCall: number;
  bytesPerRound: number;
  bytesPerCall: number;
}

/**
 * Room for the summary round of `summarize_repo` at its default budgets (about 15,000 estimated
 * tokens: 48 KiB of files, JSON-escaped, plus 1,200 to answer) with a margin, four such rounds a call.
 */
export const DEFAULT_BUDGET_LIMITS: Readonly<BudgetLimits> = Object.freeze({
  tokensPerRound: 32_768,
  tokensPerCall: 131_072,
  bytesPerRound: 1024 * 1024,
  bytesPerCall: 4 * 1024 * 1024,
});

export interface Spend {
  bytes: number;
  tokens: number;
}

export interface BudgetTotals {
  /** Spent and reserved in this call. */
  tokens: number;
  bytes: number;
  /** Spent and reserved in the current round. */
  roundTokens: number;
  roundBytes: number;
}

export interface CallBudget {
  /** Starts round `round` (1-based): the per-round totals restart; calling it again for the same round does nothing. */
  startRound(round: number): void;
  /** Counts `cost` for `key` before the model runs; throws `HostError('budget_exceeded')` if it would pass a limit. */
  reserve(key: string, cost: Spend): void;
  /** Replaces `key`'s reservation with what was actually spent (request and answer bytes, input and output tokens). */
  settle(key: string, actual: Spend): void;
  /** Drops `key`'s reservation: the model was never called (denied, rate limited, aborted). */
  release(key: string): void;
  totals(): BudgetTotals;
}

function checkCost(what: string, cost: Spend): void {
  for (const [name, value] of Object.entries(cost)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`${what}: ${name} must be a finite number >= 0, got ${String(value)}`);
    }
  }
}

/** A budget for one tool call. Limits must be positive (`Infinity` turns one off). */
export function createCallBudget(limits: BudgetLimits): CallBudget {
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
      throw new ModelInputError('config_invalid', `budget ${name} must be a positive number`);
    }
  }
  let round = 1;
  const call: Spend = { bytes: 0, tokens: 0 };
  const inRound: Spend = { bytes: 0, tokens: 0 };
  const reserved = new Map<string, Spend & { round: number }>();

  const add = (spend: Spend, spendRound: number, sign: 1 | -1) => {
    call.bytes += sign * spend.bytes;
    call.tokens += sign * spend.tokens;
    if (spendRound === round) {
      inRound.bytes += sign * spend.bytes;
      inRound.tokens += sign * spend.tokens;
    }
  };

  return {
    startRound(next) {
      if (next === round) return;
      round = next;
      inRound.bytes = 0;
      inRound.tokens = 0;
    },
    reserve(key, cost) {
      checkCost(`reserve ${key}`, cost);
      if (reserved.has(key)) throw new Error(`budget: ${key} is already reserved`);
      const over = (unit: string, scope: string, total: number, limit: number) =>
        refuse(
          'budget_exceeded',
          key,
          { round },
          `needs about ${unit === 'tokens' ? cost.tokens : cost.bytes} ${unit}, bringing this ${scope} to ${total}, ` +
            `the ${scope} budget is ${limit} ${unit}`,
        );
      const checks: Array<[string, string, number, number]> = [
        ['tokens', 'round', inRound.tokens + cost.tokens, limits.tokensPerRound],
        ['tokens', 'call', call.tokens + cost.tokens, limits.tokensPerCall],
        ['bytes', 'round', inRound.bytes + cost.bytes, limits.bytesPerRound],
        ['bytes', 'call', call.bytes + cost.bytes, limits.bytesPerCall],
      ];
      for (const [unit, scope, total, limit] of checks) {
        if (total > limit) throw over(unit, scope, total, limit);
      }
      reserved.set(key, { ...cost, round });
      add(cost, round, 1);
    },
    settle(key, actual) {
      checkCost(`settle ${key}`, actual);
      const reservation = reserved.get(key);
      if (reservation === undefined) throw new Error(`budget: ${key} was not reserved`);
      reserved.delete(key);
      add(reservation, reservation.round, -1);
      add(actual, reservation.round, 1);
    },
    release(key) {
      const reservation = reserved.get(key);
      if (reservation === undefined) return;
      reserved.delete(key);
      add(reservation, reservation.round, -1);
    },
    totals() {
      return { tokens: call.tokens, bytes: call.bytes, roundTokens: inRound.tokens, roundBytes: inRound.bytes };
    },
  };
}
