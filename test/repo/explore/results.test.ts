import { describe, expect, it } from 'vitest';

import { cutToBytes, fitLines } from '../../../src/repo/explore/results.js';

describe('explore results', () => {
  it('cuts on a character boundary, never past the cap', () => {
    expect(cutToBytes('é'.repeat(10), 5)).toBe('éé');
    expect(cutToBytes('a😀b', 4)).toBe('a');
    expect(cutToBytes('a😀b', 5)).toBe('a😀');
    expect(cutToBytes('short', 100)).toBe('short');
  });

  it('keeps whole lines and says how many were left out', () => {
    const { text, cut } = fitLines(['one', 'two', 'x'.repeat(200)], 120);
    expect(cut).toBe(1);
    expect(text).toBe('one\ntwo\n[… 1 more line not shown: the result is capped]');
    expect(Buffer.byteLength(fitLines(['é'.repeat(100)], 70).text)).toBeLessThanOrEqual(70);
  });
});
