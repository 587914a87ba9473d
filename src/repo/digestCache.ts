/**
 * Values kept under a SHA-256 digest of the texts they were computed from: for pure functions of those texts (a
 * secret scan, a token count), so a kept value can never be stale — any other text, however slightly changed, has
 * another digest. Nothing of the texts is kept. The digest is taken over the UTF-16 code units as they are (no two
 * strings share one, lone surrogates included), each part prefixed by its length (parts cannot trade characters).
 *
 * Bounded: at most `maxEntries` values (least recently used dropped first), and a value not used for `idleMs` is
 * dropped (at the next use of the cache, or by a sweep that never keeps the process alive).
 */
import { createHash } from 'node:crypto';

export interface DigestCacheOptions {
  /** Values kept at once. */
  maxEntries: number;
  /** A value not used for this long is dropped. Default 10 minutes. */
  idleMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface DigestCache<Value> {
  /** The value kept for these texts, or undefined. */
  get(texts: readonly string[]): Value | undefined;
  set(texts: readonly string[], value: Value): void;
  /** Values kept now. */
  readonly size: number;
  clear(): void;
}

/** The digest of `texts`, in order. */
export function digestOfTexts(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${text.length}:`, 'latin1').update(text, 'utf16le');
  return hash.digest('base64');
}

export function createDigestCache<Value>(options: DigestCacheOptions): DigestCache<Value> {
  const { maxEntries } = options;
  const idleMs = options.idleMs ?? 600_000;
  const now = options.now ?? Date.now;
  // Least recently used first: Map keeps insertion order, and a value used is moved to the end.
  const kept = new Map<string, { value: Value; usedAt: number }>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = (at: number): void => {
    for (const [key, entry] of kept) {
      if (at - entry.usedAt < idleMs) break;
      kept.delete(key);
    }
    if (kept.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  return {
    get(texts) {
      const at = now();
      sweep(at);
      const key = digestOfTexts(texts);
      const entry = kept.get(key);
      if (entry === undefined) return undefined;
      kept.delete(key);
      entry.usedAt = at;
      kept.set(key, entry);
      return entry.value;
    },
    set(texts, value) {
      if (maxEntries <= 0) return;
      const at = now();
      sweep(at);
      const key = digestOfTexts(texts);
      kept.delete(key);
      while (kept.size >= maxEntries) kept.delete(kept.keys().next().value as string);
      kept.set(key, { value, usedAt: at });
      sweeper ??= setInterval(() => sweep(now()), Math.max(50, idleMs / 2)).unref();
    },
    get size() {
      return kept.size;
    },
    clear() {
      kept.clear();
      sweep(now());
    },
  };
}
