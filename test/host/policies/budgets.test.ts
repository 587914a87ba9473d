/** Call budgets: reservations before the model, settlement after, round and call limits. */
import { describe, expect, it } from 'vitest';

import { isModelInputError } from '../../../src/errors.js';
import { createCallBudget, DEFAULT_BUDGET_LIMITS, type BudgetLimits } from '../../../src/host/policies/budgets.js';
import { estimateTokens, samplingRequestBytes } from '../../../src/host/policies/validateRequest.js';
import { SUMMARY_MAX_TOKENS } from '../../../src/flows/summarizeRepo/prompts.js';
import { hostErrorOf } from './positions.js';

const LIMITS: BudgetLimits = { tokensPerRound: 1000, tokensPerCall: 2500, bytesPerRound: 10_000, bytesPerCall: 25_000 };

describe('createCallBudget', () => {
  it('counts reservations in the round and call totals', () => {
    const budget = createCallBudget(LIMITS);
    budget.startRound(1);
    budget.reserve('a', { bytes: 400, tokens: 300 });
    budget.reserve('b', { bytes: 600, tokens: 200 });
    expect(budget.totals()).toEqual({ tokens: 500, bytes: 1000, roundTokens: 500, roundBytes: 1000 });
  });

  it('refuses a reservation past the round token budget, naming the key and the limit, and counts nothing', () => {
    const budget = createCallBudget(LIMITS);
    budget.startRound(2);
    budget.reserve('pick_files', { bytes: 100, tokens: 700 });
    const error = hostErrorOf(() => budget.reserve('summary', { bytes: 100, tokens: 400 }));
    expect(error.code).toBe('budget_exceeded');
    expect(error.detail).toEqual({ key: 'summary', round: 2 });
    expect(error.message).toBe(
      'input "summary": needs about 400 tokens, bringing this round to 1100, the round budget is 1000 tokens',
    );
    expect(budget.totals().tokens).toBe(700);
  });

  it('refuses past the round byte budget', () => {
    const budget = createCallBudget(LIMITS);
    budget.reserve('a', { bytes: 9_000, tokens: 1 });
    const error = hostErrorOf(() => budget.reserve('b', { bytes: 1_001, tokens: 1 }));
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toContain('the round budget is 10000 bytes');
  });

  it('carries the call totals across rounds while each round starts afresh', () => {
    const budget = createCallBudget(LIMITS);
    for (const round of [1, 2]) {
      budget.startRound(round);
      budget.reserve(`r${round}`, { bytes: 100, tokens: 1000 });
    }
    budget.startRound(3);
    expect(budget.totals()).toEqual({ tokens: 2000, bytes: 200, roundTokens: 0, roundBytes: 0 });
    budget.reserve('r3a', { bytes: 100, tokens: 500 });
    const error = hostErrorOf(() => budget.reserve('r3b', { bytes: 100, tokens: 1 }));
    expect(error.message).toContain('bringing this call to 2501, the call budget is 2500 tokens');
  });

  it('refuses past the call byte budget', () => {
    const budget = createCallBudget(LIMITS);
    for (const round of [1, 2, 3]) {
      budget.startRound(round);
      budget.reserve(`r${round}`, { bytes: 8_000, tokens: 1 });
    }
    budget.startRound(4);
    expect(hostErrorOf(() => budget.reserve('r4', { bytes: 1_001, tokens: 1 })).message).toContain(
      'the call budget is 25000 bytes',
    );
  });

  it('replaces a reservation with the actual spend when settled, freeing the difference', () => {
    const budget = createCallBudget(LIMITS);
    budget.reserve('a', { bytes: 500, tokens: 900 });
    expect(() => budget.reserve('b', { bytes: 1, tokens: 200 })).toThrow();
    budget.settle('a', { bytes: 800, tokens: 350 });
    expect(budget.totals()).toEqual({ tokens: 350, bytes: 800, roundTokens: 350, roundBytes: 800 });
    expect(() => budget.reserve('b', { bytes: 1, tokens: 200 })).not.toThrow();
  });

  it('settles a reservation of an earlier round into the call totals only', () => {
    const budget = createCallBudget(LIMITS);
    budget.startRound(1);
    budget.reserve('a', { bytes: 100, tokens: 600 });
    budget.startRound(2);
    budget.reserve('b', { bytes: 100, tokens: 100 });
    budget.settle('a', { bytes: 150, tokens: 200 });
    expect(budget.totals()).toEqual({ tokens: 300, bytes: 250, roundTokens: 100, roundBytes: 100 });
  });

  it('releases a reservation that was never spent', () => {
    const budget = createCallBudget(LIMITS);
    budget.reserve('a', { bytes: 100, tokens: 900 });
    budget.release('a');
    budget.release('a');
    expect(budget.totals()).toEqual({ tokens: 0, bytes: 0, roundTokens: 0, roundBytes: 0 });
  });

  it('keeps the round totals when the same round is started again', () => {
    const budget = createCallBudget(LIMITS);
    budget.startRound(1);
    budget.reserve('a', { bytes: 10, tokens: 10 });
    budget.startRound(1);
    expect(budget.totals().roundTokens).toBe(10);
  });

  it('rejects costs that would slip past the comparisons, and misuse', () => {
    const budget = createCallBudget(LIMITS);
    expect(() => budget.reserve('a', { bytes: Number.NaN, tokens: 1 })).toThrow(RangeError);
    expect(() => budget.reserve('a', { bytes: 1, tokens: -1 })).toThrow(RangeError);
    expect(() => budget.settle('nothing', { bytes: 1, tokens: 1 })).toThrow(/was not reserved/);
    budget.reserve('a', { bytes: 1, tokens: 1 });
    expect(() => budget.reserve('a', { bytes: 1, tokens: 1 })).toThrow(/already reserved/);
  });

  it('rejects limits that are not positive numbers as config_invalid, and accepts Infinity', () => {
    for (const bad of [0, -1, Number.NaN]) {
      let caught: unknown;
      try {
        createCallBudget({ ...LIMITS, bytesPerCall: bad });
      } catch (error) {
        caught = error;
      }
      expect(isModelInputError(caught) && caught.code).toBe('config_invalid');
    }
    const open = createCallBudget({ ...LIMITS, tokensPerRound: Infinity, tokensPerCall: Infinity });
    expect(() => open.reserve('a', { bytes: 1, tokens: 1e12 })).not.toThrow();
  });

  it('has round defaults that fit the default summarize flow on quote-heavy files', () => {
    // The summary prompt holds up to 48 KiB of files; JSON escaping grows quote-heavy ones by a third.
    const files = '{"key": "value", "list": ["a", "b"]}\n'.repeat(Math.floor((48 * 1024) / 37));
    const bytes = samplingRequestBytes({ messages: [{ role: 'user', content: { type: 'text', text: files } }] });
    const tokens = estimateTokens(bytes) + SUMMARY_MAX_TOKENS;
    expect(tokens).toBeGreaterThan(16_384);
    const budget = createCallBudget(DEFAULT_BUDGET_LIMITS);
    expect(() => budget.reserve('summary', { bytes, tokens })).not.toThrow();
  });
});
