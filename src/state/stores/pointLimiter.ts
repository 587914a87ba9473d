/**
 * `PointLimiter` over a rate-limiter-flexible limiter: its refusals as outcomes, its store errors as ours. The library
 * loads at a limiter's first use, not with the store: a process that makes a store and never limits (the main job,
 * whose tool runs on a kit with a store of its own) does not load it.
 */
import type * as RateLimiterFlexible from 'rate-limiter-flexible';

import type { LimitOutcome, PointLimiter } from './store.js';
import { loadOnce } from '../../loadOnce.js';
import { StoreUnavailableError } from './storeUnavailableError.js';

export type RateLimiterLibrary = typeof RateLimiterFlexible;

/**
 * The library, imported once (a failed import is tried again by the next use). It is CommonJS: Node lends its exports
 * names, a bundle (the CLI's) may give only `default`.
 */
const loadLibrary = loadOnce(async (): Promise<RateLimiterLibrary> => {
  const loaded = await import('rate-limiter-flexible');
  return typeof loaded.RateLimiterMemory === 'function'
    ? loaded
    : (loaded as unknown as { default: RateLimiterLibrary }).default;
});

export function wrapRateLimiter(
  create: (library: RateLimiterLibrary) => RateLimiterFlexible.RateLimiterAbstract,
  points: number,
  store: string,
): PointLimiter {
  let made: Promise<{ lib: RateLimiterLibrary; limiter: RateLimiterFlexible.RateLimiterAbstract }> | undefined;
  const ready = () => (made ??= loadLibrary().then((lib) => ({ lib, limiter: create(lib) })));
  const unavailable = (error: unknown): never => {
    throw new StoreUnavailableError(store, { cause: error });
  };
  return {
    async take(key, taken = 1) {
      const { lib, limiter } = await ready();
      try {
        const result = await limiter.consume(key, taken);
        return { allowed: true, remaining: result.remainingPoints };
      } catch (error) {
        // The library rejects with its result object when over the limit, with an Error when the store failed.
        if (error instanceof lib.RateLimiterRes) {
          return { allowed: false, retryAfterMs: Math.max(1, error.msBeforeNext) };
        }
        return unavailable(error);
      }
    },
    async check(key): Promise<LimitOutcome> {
      const { limiter } = await ready();
      let result: RateLimiterFlexible.RateLimiterRes | null;
      try {
        result = await limiter.get(key);
      } catch (error) {
        return unavailable(error);
      }
      if (result === null || result.consumedPoints < points) {
        return { allowed: true, remaining: points - (result?.consumedPoints ?? 0) };
      }
      return { allowed: false, retryAfterMs: Math.max(1, result.msBeforeNext) };
    },
    async charge(key, charged) {
      if (charged <= 0) return;
      const { limiter } = await ready();
      try {
        await limiter.penalty(key, charged);
      } catch (error) {
        unavailable(error);
      }
    },
  };
}
