import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadBudget, RepoProgress, Repository } from '../../src/repo/index.js';
import { openRepository } from '../../src/repo/index.js';
import { everyPath, TempDirs, tryMkfifo, writeTree } from './fixture.js';

const temp = new TempDirs();
let root: string;
let outside: string;
let repo: Repository;

const GENEROUS: ReadBudget = { perFileBytes: 1000, totalBytes: 10_000 };
const TIGHT: ReadBudget = { perFileBytes: 12, totalBytes: 30, perFileTokens: 40, totalTokens: 60 };

beforeAll(async () => {
  outside = await temp.make('outside-');
  root = await temp.make();
  await writeTree(outside, { 'secret.txt': 'outside the root' });
  await writeTree(root, {
    '.gitignore': '*.log\n!keep.log\nbuild/\n',
    '.git/config': '[core]\n',
    '.env': 'TOKEN=x\n',
    'README.md': '# readme\nA line about the project.\n',
    'app.log': 'x',
    'keep.log': 'kept',
    'src/main.ts': 'export const main = 1;\n',
    'src/util.ts': 'export function util(): number {\n  return 2;\n}\n',
    'src/build/out.js': 'x',
    'src/logo.png': 'x',
    'src/blob.dat': Buffer.from([1, 0, 2]),
    'src/utf16.txt': Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]),
    'docs/guide.md': 'guide text\n',
    'big.txt': 'x'.repeat(300),
  });
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'escape'));
  await symlink('src/main.ts', path.join(root, 'main-link'));
  await symlink('src', path.join(root, 'src-link'));
  await symlink('.git/config', path.join(root, 'git-link'));
  tryMkfifo(path.join(root, 'src', 'pipe'));
  repo = await openRepository(root, { maxFileBytes: 200 });
});
afterAll(() => temp.cleanup());

describe('candidateReader', () => {
  it('takes exactly what resolveCandidate accepts, and its result is what read() gives for the taken paths', async () => {
    const all = await everyPath(root);
    const asked = [...all, ...all.map((p) => `./${p}`), '../secret.txt', '/etc/passwd', 'src-link/main.ts'];
    for (const sub of [undefined, 'src', 'docs']) {
      for (const budget of [GENEROUS, TIGHT]) {
        const reader = repo.candidateReader(budget, sub);
        const taken: string[] = [];
        for (const candidate of asked) {
          const file = await reader.take(candidate);
          expect(file, `${candidate} in ${sub}`).toEqual(await repo.resolveCandidate(candidate, sub));
          if (file !== undefined && !taken.includes(file.path)) taken.push(file.path);
        }
        expect(taken.length).toBeGreaterThan(0);
        expect(reader.result()).toEqual(await repo.read(taken, budget));
      }
    }
  });

  it('reads a path asked twice once, charging the budget once', async () => {
    const reader = repo.candidateReader({ perFileBytes: 1000, totalBytes: 40 });
    expect(await reader.take('README.md')).toEqual({ path: 'README.md', size: 35 });
    expect(await reader.take('./README.md')).toEqual({ path: 'README.md', size: 35 });
    expect(await reader.take('src/main.ts')).toBeDefined();
    const result = reader.result();
    expect(result.files.map((file) => file.path)).toEqual(['README.md', 'src/main.ts']);
    expect(result.files[1]!.bytesShown).toBe(5);
    expect(result.totalBytesShown).toBe(40);
  });
});

describe('candidateReader progress', () => {
  it('reports reading as read() does, ending with every expected file read', async () => {
    const events: RepoProgress[] = [];
    const watched = await openRepository(root, { maxFileBytes: 200, onProgress: (event) => events.push(event) });
    const reader = watched.candidateReader(GENEROUS, undefined, 2);
    expect(await reader.take('src/logo.png')).toBeUndefined();
    await reader.take('README.md');
    await reader.take('src/main.ts');
    const reading = events.filter((event) => event.phase === 'reading');
    expect(reading).toEqual([
      { phase: 'reading', done: 1, of: 2 },
      { phase: 'reading', done: 2, of: 2 },
    ]);
    events.length = 0;
    await watched.read(['README.md', 'src/main.ts'], GENEROUS);
    expect(events.at(-1)).toEqual(reading.at(-1));
  });
});

describe('candidateReader on a tree changed after it was listed', () => {
  let changing: string;
  let changingRepo: Repository;

  beforeAll(async () => {
    changing = await temp.make();
    await writeTree(changing, {
      'README.md': '# readme\n',
      'a.md': 'a\n',
      'b.md': 'b\n',
      'c.md': 'c\n',
      'd.md': 'd\n',
    });
    changingRepo = await openRepository(changing, { maxFileBytes: 100 });
    expect((await changingRepo.list()).paths).toEqual(['README.md', 'a.md', 'b.md', 'c.md', 'd.md']);
    // Swapped after the listing, before the pick is read.
    await rm(path.join(changing, 'a.md'));
    await symlink(path.join(outside, 'secret.txt'), path.join(changing, 'a.md'));
    await rm(path.join(changing, 'b.md'));
    await writeFile(path.join(changing, 'b.md'), Buffer.from([0x61, 0, 0x62]));
    await writeFile(path.join(changing, 'c.md'), 'c'.repeat(101));
    await rm(path.join(changing, 'd.md'));
    tryMkfifo(path.join(changing, 'd.md'));
  });

  it.each([
    ['a file swapped for a symlink out of the root', 'a.md'],
    ['a file that became binary', 'b.md'],
    ['a file grown past the size cap', 'c.md'],
    ['a file swapped for a FIFO (or removed)', 'd.md'],
  ])('refuses %s and reads nothing of it', async (_label, name) => {
    const reader = changingRepo.candidateReader(GENEROUS);
    expect(await reader.take(name)).toBeUndefined();
    expect(await reader.take('README.md')).toEqual({ path: 'README.md', size: 9 });
    const result = reader.result();
    expect(result.files.map((file) => file.path)).toEqual(['README.md']);
    expect(JSON.stringify(result)).not.toContain('outside the root');
  });
});
