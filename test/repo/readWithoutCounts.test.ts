/**
 * A read whose files report no token counts (`ReadBudget.fileTokens: false`, the main job's printed summary) shows
 * exactly what a counted read shows — the same files, cuts and markers — and tokenizes only where a token budget's
 * decision needs an exact count.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Tokens from '../../src/repo/tokens.js';

const calls = vi.hoisted(() => ({ count: 0, cut: 0 }));
vi.mock('../../src/repo/tokens.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Tokens>();
  return {
    ...actual,
    countTokens: async (text: string) => {
      calls.count++;
      return actual.countTokens(text);
    },
    cutToTokens: async (text: string, maxTokens: number) => {
      calls.cut++;
      return actual.cutToTokens(text, maxTokens);
    },
  };
});

import type { ReadBudget, ReadResult, Repository } from '../../src/repo/index.js';
import { openRepository } from '../../src/repo/index.js';
import { TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const words = 'lorem ipsum dolor sit amet '.repeat(100); // 2,700 bytes, about 500 tokens
const dense = '漢字かな交じり文。'.repeat(100); // about 2.7 KB, more tokens than a quarter of its bytes
const PATHS = ['README.md', 'a.txt', 'b.txt', 'cjk.txt', 'c.txt'];

let repo: Repository;
beforeAll(async () => {
  const root = await temp.make();
  await writeTree(root, {
    'README.md': '# Widget\n\nTurns CSV files into charts.\n',
    'a.txt': words,
    'b.txt': words,
    'cjk.txt': dense,
    'c.txt': 'the last file\n',
  });
  repo = await openRepository(root);
});
beforeEach(() => {
  calls.count = 0;
  calls.cut = 0;
});

/** What a read shows, less the counts. */
function shown(result: ReadResult): unknown {
  return {
    files: result.files.map(({ tokens: _tokens, ...file }) => file),
    skipped: result.skipped,
    totalBytesShown: result.totalBytesShown,
  };
}

const BUDGETS: Record<string, ReadBudget> = {
  'bytes only': { perFileBytes: 1000, totalBytes: 4000 },
  'token budgets that every file fits': {
    perFileBytes: 1_000_000,
    totalBytes: 1_000_000,
    perFileTokens: 5000,
    totalTokens: 20_000,
  },
  'a per-file token budget that cuts': { perFileBytes: 1_000_000, totalBytes: 1_000_000, perFileTokens: 200 },
  'a total token budget spent across files': { perFileBytes: 1_000_000, totalBytes: 1_000_000, totalTokens: 700 },
  'a total that binds only once counted': { perFileBytes: 1_000_000, totalBytes: 1_000_000, totalTokens: 3000 },
};

describe('read without per-file token counts', () => {
  it.each(Object.entries(BUDGETS))('shows what a counted read shows, with %s', async (_name, budget) => {
    const counted = await repo.read(PATHS, budget);
    const uncounted = await repo.read(PATHS, { ...budget, fileTokens: false });
    expect(shown(uncounted)).toEqual(shown(counted));
    expect(uncounted.files.every((file) => file.tokens === undefined)).toBe(true);
    expect(uncounted.totalTokens).toBeUndefined();
    expect(counted.files.every((file) => typeof file.tokens === 'number')).toBe(true);
    // The candidate reader (the pick's read-ahead) shows the same.
    const reader = repo.candidateReader({ ...budget, fileTokens: false }, '', PATHS.length);
    for (const path of PATHS) await reader.take(path);
    expect(shown(reader.result())).toEqual(shown(counted));
  });

  it('tokenizes nothing when the files fit the token budgets by their bytes', async () => {
    await repo.read(PATHS, { ...BUDGETS['token budgets that every file fits']!, fileTokens: false });
    expect(calls).toEqual({ count: 0, cut: 0 });
    await repo.read(PATHS, BUDGETS['token budgets that every file fits']!);
    expect(calls.count).toBe(PATHS.length);
  });

  it('counts the files already shown only when a later file might not fit the rest of the total', async () => {
    // a.txt and b.txt fit 3,000 by their bytes; the CJK file does not fit what their bytes leave (3,000 − 5,400 < 0),
    // so the two are counted (about 1,000 tokens) and it is measured against the exact rest.
    const budget = { ...BUDGETS['a total that binds only once counted']!, fileTokens: false };
    const result = await repo.read(['a.txt', 'b.txt', 'cjk.txt'], budget);
    expect(calls.count).toBeGreaterThanOrEqual(2);
    expect(result.files.map((file) => file.truncated)).toEqual([false, false, false]);
  });
});
