/**
 * The shared store behind single-use request state and per-principal limits: in-process for one
 * instance, Redis for a fleet. Both answer the same questions, atomically:
 *
 * - `consumeOnce(id, expiresAtMs)`: has a sealed state's id been accepted before? The first call
 *   records it (until the state would expire anyway) and answers true; every later call, from any
 *   instance sharing the store, answers false;
 * - `limiter(...)`: points per key in fixed windows, counted where every instance sees them.
 *
 * A store that cannot answer throws `StoreUnavailableError`: callers fail closed.
 */
export interface SharedStore {
  /** `memory` (this process only) or `redis` (every instance on the same server). */
  readonly kind: 'memory' | 'redis';
  /** The store's address for logs (credentials removed). */
  readonly description: string;
  /** True the first time `id` is presented, false while it is remembered (until `expiresAtMs`). */
  consumeOnce(id: string, expiresAtMs: number): Promise<boolean>;
  /**
   * Keeps `value` under `key` until `expiresAtMs`, for every instance on this store (the kit's journal entries
   * too large to travel inside `requestState`). Optional: a store without it spills nothing.
   */
  keep?(key: string, value: string, expiresAtMs: number): Promise<void>;
  /** The value kept under `key`, or undefined when it is unknown or expired. */
  recall?(key: string): Promise<string | undefined>;
  /** A limiter whose counts every instance on this store shares. */
  limiter(options: LimiterOptions): PointLimiter;
  /** Resolves when the store answers (waiting briefly for a connection being made); throws `StoreUnavailableError` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  /** Namespace of the counters (`calls`, `tokens`). */
  name: string;
  /** Points per key and window. */
  points: number;
  /** Window length in seconds. */
  durationSeconds: number;
}

export type LimitOutcome = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

export interface PointLimiter {
  /** Takes `points` for `key`; refused when that goes over the window's points (the attempt still counts). */
  take(key: string, points?: number): Promise<LimitOutcome>;
  /** Whether `key` has any point left, taking none. */
  check(key: string): Promise<LimitOutcome>;
  /** Adds `points` spent after the fact (may go over the limit: the next `check` refuses). */
  charge(key: string, points: number): Promise<void>;
}
