/** `PointLimiter` over a rate-limiter-flexible limiter: its refusals as outcomes, its store errors as ours. */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

import type { LimitOutcome, PointLimiter } from './store.js';
import { StoreUnavailableError } from './storeUnavailableError.js';

export function wrapRateLimiter(limiter: RateLimiterAbstract, points: number, store: string): PointLimiter {
  const unavailable = (error: unknown): never => {
    throw new StoreUnavailableError(store, { cause: error });
  };
  return {
    async take(key, taken = 1) {
      try {
        const result = await limiter.consume(key, taken);
        return { allowed: true, remaining: result.remainingPoints };
      } catch (error) {
        // The library rejects with its result object when over the limit, with an Error when the store failed.
        if (error instanceof RateLimiterRes) return { allowed: false, retryAfterMs: Math.max(1, error.msBeforeNext) };
        return unavailable(error);
      }
    },
    async check(key): Promise<LimitOutcome> {
      let result: RateLimiterRes | null;
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
      try {
        await limiter.penalty(key, charged);
      } catch (error) {
        unavailable(error);
      }
    },
  };
}
