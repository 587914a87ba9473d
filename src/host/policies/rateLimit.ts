/**
 * Decides whether a server (or a principal on it) may have another model call now: a token bucket
 * per key, `capacity` calls in a burst, refilled at `refillPerSecond`. An acquirer that finds the
 * bucket empty waits for its turn when that wait is at most `maxWaitMs`, else is refused at once
 * with `rate_limited`; a round acquires its tokens together, so its wait is the wait for all of them.
 * Waiters are served in arrival order; each token goes to exactly one.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

import { ModelInputError } from '../../errors.js';
import { HostError } from '../hostError.js';
import type { CallPosition } from '../types.js';

export interface RateLimitOptions {
  capacity: number;
  refillPerSecond: number;
  maxWaitMs: number;
}

export const DEFAULT_RATE_LIMIT: Readonly<RateLimitOptions> = Object.freeze({
  capacity: 10,
  refillPerSecond: 1,
  maxWaitMs: 5_000,
});

export interface RateLimiter {
  /**
   * Takes `count` tokens (default 1) for `key` at once — a round's requests together — waiting up to
   * `maxWaitMs` for all of them; refused at once when that wait would be longer. Rejects with the abort
   * reason if `signal` aborts.
   */
  acquire(key: string, signal?: AbortSignal, count?: number): Promise<void>;
  /** Gives back `count` tokens (default 1) taken with `acquire` and never used (the round stopped before the model). */
  release?(key: string, count?: number): void;
}

export interface RateLimitClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves after `ms`; rejects (with the signal's reason) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const systemClock: RateLimitClock = {
  now: () => performance.now(),
  sleep: async (ms, signal) => {
    try {
      await sleepFor(ms, undefined, signal === undefined ? undefined : { signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  },
};

/** Buckets past this many are swept of full (idle) ones. */
const SWEEP_AT = 1024;

interface Bucket {
  /** Tokens left at `at`; below zero, the debt of the callers waiting for refill. */
  tokens: number;
  at: number;
}

function checkOptions(options: RateLimitOptions): void {
  const { capacity, refillPerSecond, maxWaitMs } = options;
  if (!Number.isSafeInteger(capacity) || capacity < 1) {
    throw new ModelInputError('config_invalid', 'rate limit capacity must be an integer of at least 1');
  }
  if (!(refillPerSecond >= 0) || !Number.isFinite(refillPerSecond)) {
    throw new ModelInputError('config_invalid', 'rate limit refillPerSecond must be a finite number >= 0');
  }
  if (!(maxWaitMs >= 0)) throw new ModelInputError('config_invalid', 'rate limit maxWaitMs must be a number >= 0');
}

/** A token-bucket limiter; `clock` is injectable for tests. */
export function createRateLimiter(
  options: Partial<RateLimitOptions> = {},
  clock: RateLimitClock = systemClock,
): RateLimiter {
  const settings: RateLimitOptions = { ...DEFAULT_RATE_LIMIT, ...options };
  checkOptions(settings);
  const { capacity, refillPerSecond, maxWaitMs } = settings;
  const buckets = new Map<string, Bucket>();

  const refilled = (bucket: Bucket, now: number): Bucket => {
    const elapsed = Math.max(0, now - bucket.at);
    return { tokens: Math.min(capacity, bucket.tokens + (elapsed * refillPerSecond) / 1000), at: now };
  };
  const sweep = (now: number) => {
    if (buckets.size < SWEEP_AT) return;
    for (const [key, bucket] of buckets) if (refilled(bucket, now).tokens >= capacity) buckets.delete(key);
  };

  const giveBack = (key: string, count: number) => {
    const bucket = buckets.get(key);
    if (bucket !== undefined) buckets.set(key, { tokens: Math.min(capacity, bucket.tokens + count), at: bucket.at });
  };

  return {
    async acquire(key, signal, count = 1) {
      signal?.throwIfAborted();
      if (!Number.isSafeInteger(count) || count < 1)
        throw new RangeError(`rate limit: count must be >= 1, got ${count}`);
      const now = clock.now();
      sweep(now);
      const bucket = refilled(buckets.get(key) ?? { tokens: capacity, at: now }, now);
      // Taking tokens from an empty bucket books the next ones: later callers queue behind this one.
      const after = bucket.tokens - count;
      const waitMs = after >= 0 ? 0 : refillPerSecond === 0 ? Infinity : Math.ceil((-after * 1000) / refillPerSecond);
      if (waitMs > maxWaitMs) {
        buckets.set(key, bucket);
        throw new HostError(
          'rate_limited',
          `rate limit for ${key}: ${count === 1 ? 'the next call' : `the next ${count} calls`} would wait ` +
            `${waitMs === Infinity ? 'forever' : `${waitMs} ms`}, ` +
            `the limit is ${maxWaitMs} ms (${capacity} calls, ${refillPerSecond} a second)`,
        );
      }
      buckets.set(key, { tokens: after, at: now });
      if (waitMs === 0) return;
      try {
        await clock.sleep(waitMs, signal);
      } catch (error) {
        // Give the booked tokens back: an aborted caller never used them.
        giveBack(key, count);
        throw error;
      }
    },
    release(key, count = 1) {
      giveBack(key, count);
    },
  };
}

let shared: RateLimiter | undefined;

/** The process-wide limiter (default options), shared by concurrent calls in the process. */
export function sharedRateLimiter(): RateLimiter {
  shared ??= createRateLimiter();
  return shared;
}

/** The keys one call acquires: its server, and its principal on that server when one is known. */
export function rateLimitKeys(position: CallPosition): string[] {
  const keys = [`server:${position.server.key}`];
  if (position.principal !== undefined && position.principal !== '') {
    keys.push(`principal:${position.server.key}#${position.principal}`);
  }
  return keys;
}
