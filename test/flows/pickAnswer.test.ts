import { afterAll, describe, expect, it } from 'vitest';

import { FlowAnswerError } from '../../src/flows/flowAnswerError.js';
import { MAX_PICK_ANSWER_BYTES, parsePickText, validatePick } from '../../src/flows/summarizeRepo/pickAnswer.js';
import { openRepository, type Repository } from '../../src/repo/index.js';
import { TempDirs, writeTree } from '../repo/fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** The repository with a count of the candidate look-ups (each one is file work: listing, lstat, open). */
async function countingRepo(): Promise<{ repo: Repository; lookups: () => number }> {
  const root = await temp.make();
  await writeTree(root, { 'README.md': '# r\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n' });
  const inner = await openRepository(root, { listing: 'walker' });
  let count = 0;
  const repo = Object.create(inner) as Repository;
  repo.resolveCandidate = (path, subPath) => {
    count++;
    return inner.resolveCandidate(path, subPath);
  };
  return { repo, lookups: () => count };
}

describe('pick answers from a hostile peer', () => {
  it('drops 18,000 copies of one path before any file work: one look-up', async () => {
    const { repo, lookups } = await countingRepo();
    const entries = parsePickText(JSON.stringify(Array.from({ length: 5_000 }, () => 'README.md')));
    const result = await validatePick(repo, entries, undefined, 3);
    expect(result.picked).toEqual(['README.md']);
    expect(lookups()).toBe(1);

    const huge = Array.from({ length: 18_000 }, () => 'README.md');
    expect(() => parsePickText(JSON.stringify(huge))).toThrow(FlowAnswerError);
    expect(() => parsePickText(JSON.stringify(huge))).toThrow(`longer than ${MAX_PICK_ANSWER_BYTES} bytes`);
  });

  it('refuses an answer nested 30,000 deep before parsing it (no stack overflow), naming the nesting', () => {
    for (const text of [`${'['.repeat(30_000)}${']'.repeat(30_000)}`, `[${'{"a":['.repeat(10_000)}`]) {
      expect(() => parsePickText(text)).toThrow(FlowAnswerError);
      expect(() => parsePickText(text)).toThrow('more than 64 deep');
    }
    // Brackets inside strings do not count.
    expect(parsePickText(JSON.stringify(['README.md', '['.repeat(100)]))).toEqual(['README.md', '['.repeat(100)]);
  });

  it('looks up at most maxFiles + 8 distinct entries', async () => {
    const { repo, lookups } = await countingRepo();
    const misses = Array.from({ length: 500 }, (_, index) => `missing/${index}.ts`);
    await expect(validatePick(repo, [...misses, 'README.md'], undefined, 2)).rejects.toThrow(FlowAnswerError);
    expect(lookups()).toBe(10);
    const mixed = await validatePick(repo, ['src/a.ts', 'src/a.ts', 'src/b.ts', 'src/c.ts', 'README.md'], undefined, 2);
    expect(mixed.picked).toEqual(['src/a.ts', 'src/b.ts']);
  });
});

describe('an answer that repeats the pick prompt', () => {
  it('is refused, although it holds one JSON array (the example)', () => {
    const echo = [
      'Repository: demo',
      'Audience: developer',
      'Pick at most 3 files that best show what this repository is, how it is organised and where it starts.',
      'Answer with only a JSON array of file paths from the list below, for example ["README.md"].',
      '',
      'Candidate files (2 listed of 2; best first; path<TAB>bytes):',
      'README.md\t10',
      'src/a.ts\t2',
    ].join('\n');
    const error = (() => {
      try {
        parsePickText(echo);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(FlowAnswerError);
    expect((error as FlowAnswerError).message).toContain('repeats the prompt');
    // The candidate list alone, as some models echo the part they were shown last.
    expect(() => parsePickText(echo.slice(echo.indexOf('Candidate')))).toThrow(/repeats the prompt/);
  });
});
