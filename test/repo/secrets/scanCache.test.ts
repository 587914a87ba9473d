/**
 * Scans kept by digest (src/repo/secrets/scanCache.ts, over test/repo/digestCache.test.ts): a kept answer is only
 * ever given for the very text and file name it was made for, so a changed text is scanned afresh; the cache is
 * bounded in entries and findings per entry; and the scanner's answers are the same from the cache as from a scan.
 */
import { describe, expect, it } from 'vitest';

import { createScanCache } from '../../../src/repo/secrets/scanCache.js';
import { keptScans, redactText, scanText } from '../../../src/repo/secrets/scanner.js';
import { corpusSecrets } from './corpus.js';

const finding = (start: number) => ({ start, end: start + 1, kind: 'k', rule: 'r' });

describe('createScanCache', () => {
  it('answers only for the same text under the same file name', () => {
    const cache = createScanCache<ReturnType<typeof finding>>();
    cache.set('token = abc', 'a.env', [finding(8)]);
    expect(cache.get('token = abc', 'a.env')).toEqual([finding(8)]);
    expect(cache.get('token = abd', 'a.env')).toBeUndefined();
    expect(cache.get('token = abc', 'b.env')).toBeUndefined();
    expect(cache.get('token = abc', '')).toBeUndefined();
    // The name and the text cannot trade characters, and lone surrogates are told apart (no UTF-8 replacement).
    cache.set('yz', 'x', [finding(0)]);
    expect(cache.get('z', 'xy')).toBeUndefined();
    cache.set('a\uD800b', '', [finding(1)]);
    expect(cache.get('a\uDC00b', '')).toBeUndefined();
    expect(cache.get('a\uD800b', '')).toEqual([finding(1)]);
  });

  it('hands out copies: changing an answer does not change the next one', () => {
    const cache = createScanCache<ReturnType<typeof finding>>();
    const made = [finding(3)];
    cache.set('text', '', made);
    made[0]!.start = 99;
    const first = cache.get('text', '')!;
    first[0]!.end = 42;
    expect(cache.get('text', '')).toEqual([finding(3)]);
  });

  it('does not keep a scan with more than maxFindings findings', () => {
    const cache = createScanCache<ReturnType<typeof finding>>({ maxFindings: 2 });
    cache.set('many', '', [finding(0), finding(2), finding(4)]);
    cache.set('few', '', [finding(0), finding(2)]);
    expect(cache.get('many', '')).toBeUndefined();
    expect(cache.get('few', '')).toHaveLength(2);
    expect(cache.size).toBe(1);
  });

  it('keeps at most maxEntries scans', () => {
    const cache = createScanCache<ReturnType<typeof finding>>({ maxEntries: 2 });
    for (const text of ['a', 'b', 'c']) cache.set(text, '', [finding(0)]);
    expect(cache.size).toBe(2);
    expect(cache.get('a', '')).toBeUndefined();
    expect(cache.get('c', '')).toEqual([finding(0)]);
  });
});

describe('the scanner with its cache', () => {
  const token = corpusSecrets().find((entry) => entry.id === 'github_classic')!.value;

  it('gives the same findings from the cache as from a scan, and keeps one entry per distinct text', async () => {
    keptScans().clear();
    const text = `const token = '${token}';\n`;
    const scanned = await scanText(text, 'src/a.ts');
    expect(keptScans().size).toBe(1);
    expect(await scanText(text, 'src/a.ts')).toEqual(scanned);
    expect(keptScans().size).toBe(1);
    expect(scanned.map((found) => text.slice(found.start, found.end))).toEqual([token]);
  });

  it('sees a changed text: a secret added, changed or removed since the last scan', async () => {
    keptScans().clear();
    const clean = 'const token = process.env.TOKEN;\n';
    expect((await redactText(clean, 'src/a.ts')).count).toBe(0);
    const added = `const token = '${token}';\n`;
    expect((await redactText(added, 'src/a.ts')).text).toBe("const token = '[redacted: GitHub token]';\n");
    const other = `const token = 'ghp_${'Z'.repeat(36)}';\n`;
    expect((await redactText(other, 'src/a.ts')).text).toBe("const token = '[redacted: GitHub token]';\n");
    expect((await redactText(clean, 'src/a.ts')).count).toBe(0);
    expect(keptScans().size).toBe(3);
  });
});
