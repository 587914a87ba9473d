/** The token bucket, on a fake clock: bursts, refill, the wait cap, fair queueing, abort. */
import { describe, expect, it } from 'vitest';

import { isModelInputError } from '../../../src/errors.js';
import { isHostError } from '../../../src/host/hostError.js';
import {
  createRateLimiter,
  rateLimitKeys,
  sharedRateLimiter,
  type RateLimitClock,
} from '../../../src/host/policies/rateLimit.js';
import { position } from './positions.js';

interface Sleeper {
  until: number;
  resolve: () => void;
}

/** A clock that moves only when told; `sleeps` records every wait asked for. */
function fakeClock() {
  let now = 0;
  const sleepers = new Set<Sleeper>();
  const sleeps: number[] = [];
  const clock: RateLimitClock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleeps.push(ms);
        const sleeper = { until: now + ms, resolve };
        sleepers.add(sleeper);
        signal?.addEventListener('abort', () => {
          sleepers.delete(sleeper);
          reject(signal.reason);
        });
      }),
  };
  return {
    clock,
    sleeps,
    async advance(ms: number) {
      now += ms;
      for (const sleeper of [...sleepers].sort((a, b) => a.until - b.until)) {
        if (sleeper.until > now) continue;
        sleepers.delete(sleeper);
        sleeper.resolve();
      }
      await settle();
    },
  };
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tracks when a promise settles, without awaiting it. */
function track(promise: Promise<void>) {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => (state.done = true),
    (error: unknown) => {
      state.done = true;
      state.error = error;
    },
  );
  return state;
}

async function rejection(promise: Promise<void>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createRateLimiter', () => {
  it('allows a burst of capacity at once, then refuses at once when it may not wait', async () => {
    const { clock, sleeps } = fakeClock();
    const limiter = createRateLimiter({ capacity: 3, refillPerSecond: 1, maxWaitMs: 0 }, clock);
    for (let i = 0; i < 3; i++) await limiter.acquire('server:a');
    const error = await rejection(limiter.acquire('server:a'));
    expect(isHostError(error) && error.code).toBe('rate_limited');
    expect((error as Error).message).toContain('would wait 1000 ms, the limit is 0 ms');
    expect(sleeps).toEqual([]);
  });

  it('refills with time', async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 2, refillPerSecond: 2, maxWaitMs: 0 }, fake.clock);
    await limiter.acquire('k');
    await limiter.acquire('k');
    await expect(limiter.acquire('k')).rejects.toThrow(/rate limit/);
    await fake.advance(500);
    await limiter.acquire('k');
    await expect(limiter.acquire('k')).rejects.toThrow(/rate limit/);
    await fake.advance(10_000); // refill stops at capacity
    await limiter.acquire('k');
    await limiter.acquire('k');
    await expect(limiter.acquire('k')).rejects.toThrow(/rate limit/);
  });

  it('waits for the next token when the wait is within maxWaitMs', async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxWaitMs: 5_000 }, fake.clock);
    await limiter.acquire('k');
    const second = track(limiter.acquire('k'));
    await settle();
    expect(fake.sleeps).toEqual([1000]);
    expect(second.done).toBe(false);
    await fake.advance(999);
    expect(second.done).toBe(false);
    await fake.advance(1);
    expect(second).toEqual({ done: true, error: undefined });
  });

  it('queues concurrent acquirers behind each other, one token each, and refuses past the wait cap', async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxWaitMs: 2_000 }, fake.clock);
    const callers = [0, 1, 2].map(() => track(limiter.acquire('k')));
    const fourth = track(limiter.acquire('k'));
    await settle();
    expect(callers.map((c) => c.done)).toEqual([true, false, false]);
    expect(fake.sleeps).toEqual([1000, 2000]);
    expect(fourth.done).toBe(true);
    expect(isHostError(fourth.error) && fourth.error.code).toBe('rate_limited');
    await fake.advance(1000);
    expect(callers.map((c) => c.done)).toEqual([true, true, false]);
    await fake.advance(1000);
    expect(callers.every((c) => c.done && c.error === undefined)).toBe(true);
  });

  it('keeps a bucket per key', async () => {
    const { clock } = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxWaitMs: 0 }, clock);
    await limiter.acquire('server:a');
    await expect(limiter.acquire('server:a')).rejects.toThrow(/rate limit/);
    await expect(limiter.acquire('server:b')).resolves.toBeUndefined();
  });

  it('rejects a waiter with the abort reason and gives its token back', async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxWaitMs: 1_000 }, fake.clock);
    await limiter.acquire('k');
    const controller = new AbortController();
    const waiting = limiter.acquire('k', controller.signal);
    await settle();
    const reason = new Error('stopped by the user');
    controller.abort(reason);
    expect(await rejection(waiting)).toBe(reason);
    // Had the aborted waiter kept its token, this one would wait 2000 ms, past the cap.
    const next = track(limiter.acquire('k'));
    await settle();
    expect(fake.sleeps).toEqual([1000, 1000]);
    await fake.advance(1000);
    expect(next).toEqual({ done: true, error: undefined });
  });

  it('rejects an already aborted acquirer without taking a token', async () => {
    const { clock } = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxWaitMs: 0 }, clock);
    const reason = new Error('gone');
    expect(await rejection(limiter.acquire('k', AbortSignal.abort(reason)))).toBe(reason);
    await expect(limiter.acquire('k')).resolves.toBeUndefined();
  });

  it('never refills with refillPerSecond 0', async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0, maxWaitMs: 60_000 }, fake.clock);
    await limiter.acquire('k');
    await fake.advance(3_600_000);
    await expect(limiter.acquire('k')).rejects.toThrow(/would wait forever/);
  });

  it('waits on the real clock by default, and stops waiting on abort', async () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1000, maxWaitMs: 100 });
    await limiter.acquire('k');
    await expect(limiter.acquire('k')).resolves.toBeUndefined();
    const slow = createRateLimiter({ capacity: 1, refillPerSecond: 0.01, maxWaitMs: 1_000_000 });
    await slow.acquire('k');
    const controller = new AbortController();
    const waiting = slow.acquire('k', controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });

  it('rejects bad options as config_invalid', () => {
    for (const bad of [{ capacity: 0 }, { capacity: 1.5 }, { refillPerSecond: -1 }, { maxWaitMs: Number.NaN }]) {
      let caught: unknown;
      try {
        createRateLimiter(bad);
      } catch (error) {
        caught = error;
      }
      expect(isModelInputError(caught) && caught.code).toBe('config_invalid');
    }
  });
});

describe('sharedRateLimiter and rateLimitKeys', () => {
  it('returns one process-wide limiter', () => {
    expect(sharedRateLimiter()).toBe(sharedRateLimiter());
  });

  it('keys by server, and by principal on that server when one is known', () => {
    expect(rateLimitKeys(position())).toEqual(['server:http://127.0.0.1:8080/mcp']);
    expect(rateLimitKeys(position(1, 'alice'))).toEqual([
      'server:http://127.0.0.1:8080/mcp',
      'principal:http://127.0.0.1:8080/mcp#alice',
    ]);
  });
});

describe('release', () => {
  it('gives an unused token back, never above the capacity', async () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0, maxWaitMs: 0 });
    await limiter.acquire('server:a');
    await expect(limiter.acquire('server:a')).rejects.toMatchObject({ code: 'rate_limited' });
    limiter.release?.('server:a');
    await limiter.acquire('server:a');
    limiter.release?.('server:a');
    limiter.release?.('server:a');
    await limiter.acquire('server:a');
    await expect(limiter.acquire('server:a')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it("takes a round's tokens together: refused at once when their wait passes the limit", async () => {
    const fake = fakeClock();
    const limiter = createRateLimiter({ capacity: 2, refillPerSecond: 1, maxWaitMs: 3_000 }, fake.clock);
    // Ten at once would wait 8 s for the last: refused, and nothing is booked.
    await expect(limiter.acquire('server:a', undefined, 10)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(fake.sleeps).toEqual([]);
    // Five wait 3 s (the limit) together.
    const five = limiter.acquire('server:a', undefined, 5);
    expect(fake.sleeps).toEqual([3_000]);
    await fake.advance(3_000);
    await five;
  });

  it('gives back what a round took', async () => {
    const { clock } = fakeClock();
    const limiter = createRateLimiter({ capacity: 4, refillPerSecond: 0, maxWaitMs: 0 }, clock);
    await limiter.acquire('server:a', undefined, 4);
    limiter.release?.('server:a', 4);
    await limiter.acquire('server:a', undefined, 4);
    await expect(limiter.acquire('server:a')).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
