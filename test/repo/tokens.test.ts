import { describe, expect, it } from 'vitest';

import { capResultText } from '../../src/flows/summarizeRepo/prompts.js';
import {
  countTokens,
  cutToTokens,
  fitsTokens,
  keptCounts,
  MAX_PIECE_CHARS,
  tokenizerPieces,
} from '../../src/repo/tokens.js';

/** Counts event-loop turns (setImmediate callbacks) while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  // Warm the encoder first so that its loading is not what lets the loop turn.
  await countTokens('warm up');
  setImmediate(tick);
  const result = await work();
  running = false;
  return { result, turns };
}

describe('tokenizer pieces', () => {
  it('cuts long text into bounded pieces, after whitespace where it can, never inside a surrogate pair', () => {
    const words = 'lorem ipsum dolor '.repeat(500);
    const pieces = [...tokenizerPieces(words)];
    expect(pieces.join('')).toBe(words);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_PIECE_CHARS);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith(' ')).toBe(true);

    const emoji = '😀'.repeat(3000);
    const cut = [...tokenizerPieces(`x${emoji}`)];
    expect(cut.join('')).toBe(`x${emoji}`);
    for (const piece of cut) {
      expect(piece.length).toBeLessThanOrEqual(MAX_PIECE_CHARS);
      expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});

describe('hostile text reaching the tokenizer', () => {
  it('cuts 200 KB of one repeated character to the budget while the event loop keeps turning', async () => {
    const text = 'a'.repeat(200 * 1024);
    const { result, turns } = await turnsDuring(() => cutToTokens(text, 1000));
    expect(result.tokens).toBeLessThanOrEqual(1000);
    expect(result.tokens).toBeGreaterThan(900);
    expect(text.startsWith(result.text)).toBe(true);
    // The encoder saw pieces and yielded between them: other requests are served meanwhile.
    expect(turns).toBeGreaterThan(1);
  });

  it('counts and cuts 240 KB of CJK without overflowing the stack, yielding between pieces', async () => {
    const text = '漢字仮名交じり文'.repeat(10 * 1024); // 80 Ki characters, 240 KiB of UTF-8
    expect(Buffer.byteLength(text)).toBe(240 * 1024);
    const counted = await turnsDuring(() => countTokens(text));
    expect(counted.result).toBeGreaterThan(10_000);
    expect(counted.turns).toBeGreaterThan(10);
    const cut = await cutToTokens(text, 25_000);
    expect(cut.tokens).toBeLessThanOrEqual(25_000);
    expect(text.startsWith(cut.text)).toBe(true);
  });

  it('caps a giant summary answer to the result budget with the visible note', async () => {
    const capped = await capResultText('b'.repeat(200 * 1024), 2_000);
    expect(capped.cut).toBe(true);
    expect(capped.text).toMatch(/\[… summary cut to about 2000 tokens\]$/);
    expect(await countTokens(capped.text)).toBeLessThanOrEqual(2_000);
  });

  it('trims the trailing space of a cut answer before the note', async () => {
    const text = `start${' '.repeat(150_000)}end`;
    const capped = await capResultText(text, 200);
    expect(capped.cut).toBe(true);
    expect(capped.text.startsWith('start')).toBe(true);
    expect(capped.text).toBe('start\n\n[… summary cut to about 200 tokens]');
  });

  it('returns text that fits whole, with the same count as before for short text', async () => {
    expect(await cutToTokens('hello world', 100)).toEqual({ text: 'hello world', tokens: 2 });
    expect(await countTokens('')).toBe(0);
  });
});

describe('fitsTokens', () => {
  it('agrees with a cut to the same budget, and never says a text over its budget fits', async () => {
    const texts = [
      'hello world',
      'a'.repeat(3000),
      '漢字仮名交じり文'.repeat(200),
      '😀'.repeat(700),
      `x ${'y'.repeat(50)} z`,
    ];
    for (const text of texts) {
      const tokens = await countTokens(text);
      for (const limit of [0, 1, tokens - 1, tokens, tokens + 1, Buffer.byteLength(text)]) {
        const fits = await fitsTokens(text, limit);
        expect(fits, `${text.slice(0, 8)} in ${limit}`).toBe((await cutToTokens(text, limit)).text === text);
        if (fits) expect(tokens).toBeLessThanOrEqual(limit);
      }
    }
  });
});

describe('counts kept by digest', () => {
  it('counts a text once, and a changed text anew', async () => {
    keptCounts().clear();
    const text = 'function add(a, b) {\n  return a + b;\n}\n';
    const first = await countTokens(text);
    expect(keptCounts().size).toBe(1);
    expect(await countTokens(text)).toBe(first);
    expect(keptCounts().size).toBe(1);
    const changed = text.replace('a + b', 'a + b + c + d + e');
    expect(await countTokens(changed)).toBeGreaterThan(first);
    expect(keptCounts().size).toBe(2);
    // The kept count is the count: the same text cut to its own count fits whole.
    expect(await cutToTokens(text, first)).toEqual({ text, tokens: first });
  });
});
