import { describe, expect, it } from 'vitest';

import { createMemoryStore } from '../../../src/state/stores/index.js';

describe('memory store', () => {
  it('consumes an id once, until the state would expire', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ now: () => now });
    expect(await store.consumeOnce('a', now + 5000)).toBe(true);
    expect(await store.consumeOnce('a', now + 5000)).toBe(false);
    expect(await store.consumeOnce('b', now + 5000)).toBe(true);
    now += 5001;
    // Past its expiry the codec refuses the state anyway; the id is forgotten.
    expect(await store.consumeOnce('a', now + 5000)).toBe(true);
  });

  it('limits points per key in a window, keys apart', async () => {
    const limiter = createMemoryStore().limiter({ name: 'calls', points: 2, durationSeconds: 60 });
    expect(await limiter.take('alice')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.take('alice')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limiter.take('alice');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterMs).toBeGreaterThan(0);
    expect(await limiter.take('bob')).toMatchObject({ allowed: true });
  });

  it('charges after the fact: check refuses once the budget is spent', async () => {
    const budget = createMemoryStore().limiter({ name: 'tokens', points: 100, durationSeconds: 86_400 });
    expect(await budget.check('alice')).toMatchObject({ allowed: true, remaining: 100 });
    await budget.charge('alice', 60);
    expect(await budget.check('alice')).toMatchObject({ allowed: true, remaining: 40 });
    await budget.charge('alice', 60);
    expect((await budget.check('alice')).allowed).toBe(false);
    expect((await budget.check('bob')).allowed).toBe(true);
  });
});
