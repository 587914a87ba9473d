/**
 * Values kept by digest (src/repo/digestCache.ts), under the secret scans and the token counts: a kept value is only
 * ever given for the very texts it was made from, and the cache is bounded in entries and idle time.
 */
import { describe, expect, it } from 'vitest';

import { createDigestCache } from '../../src/repo/digestCache.js';

describe('createDigestCache', () => {
  it('answers only for the same texts, in the same order', () => {
    const cache = createDigestCache<number>({ maxEntries: 8 });
    cache.set(['a.env', 'token = abc'], 1);
    expect(cache.get(['a.env', 'token = abc'])).toBe(1);
    expect(cache.get(['a.env', 'token = abd'])).toBeUndefined();
    expect(cache.get(['b.env', 'token = abc'])).toBeUndefined();
    expect(cache.get(['token = abc', 'a.env'])).toBeUndefined();
    expect(cache.get(['a.envtoken = abc'])).toBeUndefined();
    // Parts cannot trade characters, and lone surrogates are told apart (no UTF-8 replacement character).
    cache.set(['x', 'yz'], 2);
    expect(cache.get(['xy', 'z'])).toBeUndefined();
    expect(cache.get(['x:yz'])).toBeUndefined();
    cache.set(['a\uD800b'], 3);
    expect(cache.get(['a\uDC00b'])).toBeUndefined();
    expect(cache.get(['a\uFFFDb'])).toBeUndefined();
    expect(cache.get(['a\uD800b'])).toBe(3);
  });

  it('keeps at most maxEntries values, the least recently used dropped first', () => {
    const cache = createDigestCache<string>({ maxEntries: 3 });
    for (const text of ['a', 'b', 'c']) cache.set([text], text);
    expect(cache.get(['a'])).toBe('a'); // 'a' is now the most recently used
    cache.set(['d'], 'd');
    cache.set(['e'], 'e');
    expect(cache.size).toBe(3);
    expect(cache.get(['b'])).toBeUndefined();
    expect(cache.get(['c'])).toBeUndefined();
    expect([cache.get(['a']), cache.get(['d']), cache.get(['e'])]).toEqual(['a', 'd', 'e']);
  });

  it('drops a value not used for idleMs', () => {
    let clock = 0;
    const cache = createDigestCache<string>({ maxEntries: 8, idleMs: 1000, now: () => clock });
    cache.set(['old'], 'old');
    clock = 600;
    cache.set(['young'], 'young');
    clock = 1200;
    expect(cache.get(['old'])).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.get(['young'])).toBe('young'); // used at 1200: kept until 2200
    clock = 2100;
    expect(cache.get(['young'])).toBe('young');
    clock = 3200;
    expect(cache.get(['young'])).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
