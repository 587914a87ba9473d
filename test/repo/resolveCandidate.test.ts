import { readdir, lstat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isModelInputError } from '../../src/errors.js';
import type { Repository } from '../../src/repo/index.js';
import { openRepository } from '../../src/repo/index.js';
import { TempDirs, tryMkfifo, writeTree } from './fixture.js';

const temp = new TempDirs();
let root: string;
let outside: string;
let repo: Repository;
let hasFifo = false;

beforeAll(async () => {
  outside = await temp.make('outside-');
  root = await temp.make();
  await writeTree(outside, { 'secret.txt': 'secret' });
  await writeTree(root, {
    '.gitignore': '*.log\n!keep.log\nbuild/\n/only-root.txt\n',
    '.git/config': '[core]\n',
    '.git/info/exclude': 'local.env\n',
    '.ignore': 'generated/\n',
    'README.md': '# readme\n',
    'app.log': 'x',
    'keep.log': 'kept',
    'local.env': 'x',
    'only-root.txt': 'x',
    'src/main.ts': 'export const main = 1;\n',
    'src/.gitignore': '*.snap\n',
    'src/a.snap': 'x',
    'src/only-root.txt': 'kept: anchored at the root',
    'src/build/out.js': 'x',
    'src/logo.png': 'x',
    'src/blob.dat': Buffer.from([1, 0, 2]),
    'generated/g.ts': 'x',
    'docs/guide.md': 'guide',
    'big.txt': 'x'.repeat(300),
  });
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'escape'));
  await symlink('src/main.ts', path.join(root, 'main-link'));
  await symlink('src', path.join(root, 'src-link'));
  hasFifo = tryMkfifo(path.join(root, 'src', 'pipe'));
  repo = await openRepository(root, { maxFileBytes: 200 });
});
afterAll(() => temp.cleanup());

/** Every path in the fixture (files, directories, links, .git contents), found without the reader. */
async function everyPath(dir = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(path.join(root, dir))) {
    const relative = dir === '' ? name : `${dir}/${name}`;
    out.push(relative);
    if ((await lstat(path.join(root, relative))).isDirectory()) out.push(...(await everyPath(relative)));
  }
  return out;
}

describe('resolveCandidate', () => {
  it('agrees with list() for every path in the fixture, with and without a sub-path', async () => {
    const all = await everyPath();
    expect(all.length).toBeGreaterThan(25);
    for (const sub of [undefined, 'src', 'docs']) {
      const listing = await repo.list(sub);
      const listed = new Map((await repo.inspect(listing.paths)).files.map((f) => [f.path, f.size]));
      expect(listed.size).toBeGreaterThan(0);
      for (const candidate of [...all, ...all.map((p) => `./${p}`)]) {
        const resolved = await repo.resolveCandidate(candidate, sub);
        const normal = candidate.replace(/^\.\//, '');
        expect(resolved && { path: resolved.path, size: resolved.size }, `${candidate} in ${sub}`).toEqual(
          listed.has(normal) ? { path: normal, size: listed.get(normal) } : undefined,
        );
      }
    }
  });

  it('accepts good paths and returns them normalized', async () => {
    expect(await repo.resolveCandidate('./src/main.ts')).toEqual({ path: 'src/main.ts', size: 23 });
    expect(await repo.resolveCandidate('src\\main.ts')).toEqual({ path: 'src/main.ts', size: 23 });
    expect(await repo.resolveCandidate('src//./main.ts')).toEqual({ path: 'src/main.ts', size: 23 });
    expect(await repo.resolveCandidate('docs/../README.md')).toEqual({ path: 'README.md', size: 9 });
    expect(await repo.resolveCandidate('keep.log')).toEqual({ path: 'keep.log', size: 4 });
    expect(await repo.resolveCandidate('src/only-root.txt')).toBeDefined();
    expect(await repo.resolveCandidate('main-link')).toEqual({ path: 'main-link', size: 23 });
    expect(await repo.resolveCandidate('src/main.ts', './src/')).toEqual({ path: 'src/main.ts', size: 23 });
  });

  it.each([
    ['parent escape', '../secret.txt'],
    ['nested escape', 'src/../../secret.txt'],
    ['absolute /etc', '/etc/passwd'],
    ['windows absolute', 'C:\\Windows\\win.ini'],
    ['NUL byte', 'README.md\0'],
    ['empty', ''],
    ['dot', '.'],
    ['ignored file', 'app.log'],
    ['ignored by a nested .gitignore', 'src/a.snap'],
    ['ignored by an anchored pattern', 'only-root.txt'],
    ['inside an ignored directory', 'src/build/out.js'],
    ['ignored by .ignore', 'generated/g.ts'],
    ['ignored by .git/info/exclude', 'local.env'],
    ['inside .git', '.git/config'],
    ['missing', 'src/missing.ts'],
    ['a directory', 'src'],
    ['binary by extension', 'src/logo.png'],
    ['binary by content', 'src/blob.dat'],
    ['too large', 'big.txt'],
    ['symlink escaping the root', 'escape'],
    ['through a symlinked directory', 'src-link/main.ts'],
  ])('rejects %s', async (_label, candidate) => {
    expect(await repo.resolveCandidate(candidate)).toBeUndefined();
  });

  it('rejects the absolute path even of a file inside the root', async () => {
    expect(await repo.resolveCandidate(path.join(root, 'README.md'))).toBeUndefined();
  });

  it('rejects a FIFO without opening it', async (ctx) => {
    if (!hasFifo) ctx.skip();
    expect(await repo.resolveCandidate('src/pipe')).toBeUndefined();
  });

  it('rejects paths outside the sub-path', async () => {
    expect(await repo.resolveCandidate('README.md', 'src')).toBeUndefined();
    expect(await repo.resolveCandidate('docs/guide.md', 'src')).toBeUndefined();
    expect(await repo.resolveCandidate('src', 'src')).toBeUndefined();
    expect(await repo.resolveCandidate('docs/guide.md', 'docs')).toEqual({ path: 'docs/guide.md', size: 5 });
  });

  it('throws path_outside_root for an invalid sub-path', async () => {
    for (const sub of ['..', '/etc', 'a/../../x']) {
      const error: unknown = await repo.resolveCandidate('README.md', sub).catch((e: unknown) => e);
      expect(isModelInputError(error) && error.code).toBe('path_outside_root');
    }
  });
});
