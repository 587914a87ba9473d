import { describe, expect, it, vi } from 'vitest';

import { createTokenizerThread, type Encoder } from '../../src/repo/tokenizerThread.js';
import type * as TokensModule from '../../src/repo/tokens.js';

type Tokens = typeof TokensModule;

/** A fresh copy of tokens.ts (its encoder is module state): in-thread, or moved to its own thread first. */
async function freshTokens(threaded: boolean): Promise<Tokens> {
  vi.resetModules();
  const tokens = await import('../../src/repo/tokens.js');
  if (threaded) expect(tokens.startTokenizerThread()).toBe(true);
  return tokens;
}

/** Texts that stress the piecewise counting and cutting: no whitespace, surrogate pairs, CJK, mixed scripts. */
const ADVERSARIAL = [
  'a'.repeat(20_000),
  '😀'.repeat(3_000),
  `x${'😀'.repeat(2_000)}`,
  '漢字仮名交じり文'.repeat(1_500),
  ' '.repeat(5_000) + 'end',
  '0123456789'.repeat(1_000),
  Array.from({ length: 4_000 }, (_, index) => String.fromCharCode(33 + ((index * 7919) % 90000))).join(''),
  'function f(a, b) {\n  return a + b; // ünïcödé\n}\n'.repeat(300),
];
const LIMITS = [0, 1, 7, 100, 1_000, 2_500];

describe('the tokenizer on its own thread', () => {
  it('gives the same counts and cuts as in-thread, and no cut exceeds its budget', async () => {
    const inThread = await freshTokens(false);
    const threaded = await freshTokens(true);
    for (const text of ADVERSARIAL) {
      const label = `${text.slice(0, 12)}… (${text.length})`;
      expect(await threaded.countTokens(text), label).toBe(await inThread.countTokens(text));
      for (const limit of LIMITS) {
        const cut = await threaded.cutToTokens(text, limit);
        expect(cut, `${label} to ${limit}`).toEqual(await inThread.cutToTokens(text, limit));
        expect(cut.tokens).toBeLessThanOrEqual(limit);
        // Counted whole by the real encoder, the kept text is within the budget too.
        expect(await inThread.countTokens(cut.text)).toBeLessThanOrEqual(limit);
        expect(text.startsWith(cut.text)).toBe(true);
        expect(cut.text).not.toMatch(/[\uD800-\uDBFF]$/);
      }
    }
  });

  it('answers concurrent requests each with its own result', async () => {
    const inThread = await freshTokens(false);
    const threaded = await freshTokens(true);
    const texts = ADVERSARIAL.map((text, index) => text.slice(0, 500 + index * 300));
    const together = await Promise.all(texts.map((text) => threaded.countTokens(text)));
    const oneByOne: number[] = [];
    for (const text of texts) oneByOne.push(await inThread.countTokens(text));
    expect(together).toEqual(oneByOne);
  });

  it('falls back to the encoder in this thread when the thread fails, for calls in flight and later ones', async () => {
    let fallbacks = 0;
    const inThread = await freshTokens(false);
    const direct = await import('gpt-tokenizer/encoding/o200k_base');
    const fallback = (): Encoder => {
      fallbacks++;
      return {
        count: async (pieces) => pieces.map((piece) => direct.countTokens(piece)),
        encode: async (text) => direct.encode(text),
        decode: async (tokens) => direct.decode(tokens),
      };
    };
    const broken = createTokenizerThread(fallback, '/nonexistent/encoder.js');
    expect(broken).toBeDefined();
    const pieces = ['hello world', '漢字仮名交じり文', 'a'.repeat(900)];
    const expected = await Promise.all(pieces.map((piece) => inThread.countTokens(piece)));
    expect(await broken?.count(pieces)).toEqual(expected);
    expect(await broken?.decode(await broken.encode('fallback works'))).toBe('fallback works');
    expect(fallbacks).toBe(1);
  });
});
