/** The default store: this process only (one instance; nothing to install). */
import { wrapRateLimiter } from './pointLimiter.js';
import type { SharedStore } from './store.js';

export interface MemoryStoreOptions {
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const now = options.now ?? Date.now;
  // id -> expiry (ms). An id is remembered until its state would have expired anyway. One codec
  // gives every state the same lifetime, so insertion order is expiry order: the sweep stops at
  // the first id still alive, and costs only what it removes.
  const consumed = new Map<string, number>();
  /** Kept values (spilled journal entries), each with its expiry; swept as they are kept. */
  const kept = new Map<string, { value: string; expiresAtMs: number }>();

  function sweep(at: number): void {
    for (const [id, expiresAtMs] of consumed) {
      if (expiresAtMs > at) return;
      consumed.delete(id);
    }
  }

  return {
    kind: 'memory',
    description: 'memory (this process)',
    consumeOnce(id, expiresAtMs) {
      const at = now();
      const known = consumed.get(id);
      if (known !== undefined && known > at) return Promise.resolve(false);
      sweep(at);
      consumed.delete(id);
      consumed.set(id, expiresAtMs);
      return Promise.resolve(true);
    },
    keep(key, value, expiresAtMs) {
      const at = now();
      for (const [known, entry] of kept) if (entry.expiresAtMs <= at) kept.delete(known);
      kept.set(key, { value, expiresAtMs });
      return Promise.resolve();
    },
    recall(key) {
      const entry = kept.get(key);
      return Promise.resolve(entry !== undefined && entry.expiresAtMs > now() ? entry.value : undefined);
    },
    limiter({ name, points, durationSeconds }) {
      const options = { keyPrefix: `mmi:${name}`, points, duration: durationSeconds };
      return wrapRateLimiter((lib) => new lib.RateLimiterMemory(options), points, 'memory');
    },
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
