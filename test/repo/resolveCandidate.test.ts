import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isModelInputError } from '../../src/errors.js';
import type { Repository } from '../../src/repo/index.js';
import { openRepository } from '../../src/repo/index.js';
import { everyPath, git, TempDirs, tryMkfifo, writeTree } from './fixture.js';

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

describe('resolveCandidate', () => {
  it('agrees with list() for every path in the fixture, with and without a sub-path', async () => {
    const all = await everyPath(root);
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

describe('resolveCandidate judges the path as the tree is now, without listing it', () => {
  it('agrees with the git fast path on tracked files that an ignore rule matches', async () => {
    const dir = await temp.make('git-');
    await writeTree(dir, {
      'README.md': '# r\n',
      'tracked.log': 'tracked, then ignored',
      'untracked.log': 'never tracked',
      'vendor/kept.js': 'tracked inside a directory ignored later',
      'vendor/other.js': 'untracked',
    });
    git(dir, ['init', '-q']);
    git(dir, ['add', 'README.md', 'tracked.log', 'vendor/kept.js']);
    await writeTree(dir, { '.gitignore': '*.log\nvendor/\n', '.ignore': 'README.md\n' });
    const gitRepo = await openRepository(dir);
    const listing = await gitRepo.list();
    expect(listing.source.kind).toBe('git');
    expect(listing.paths).toEqual(['.gitignore', '.ignore', 'tracked.log', 'vendor/kept.js']);
    for (const candidate of ['tracked.log', 'vendor/kept.js', '.gitignore']) {
      expect(await gitRepo.resolveCandidate(candidate), candidate).toBeDefined();
    }
    // Ignored by git's rules and untracked, or ignored by the `.ignore` layer (which git's index does not override).
    for (const candidate of ['untracked.log', 'vendor/other.js', 'README.md']) {
      expect(await gitRepo.resolveCandidate(candidate), candidate).toBeUndefined();
    }
    // The walker (no git) lists neither tracked file; neither does resolveCandidate then.
    const walkerRepo = await openRepository(dir, { listing: 'walker' });
    expect((await walkerRepo.list()).paths).toEqual(['.gitignore', '.ignore']);
    expect(await walkerRepo.resolveCandidate('tracked.log')).toBeUndefined();
  });

  it('sees a file added, removed, changed or newly ignored since the last listing', async () => {
    const dir = await temp.make('fresh-');
    await writeTree(dir, { 'README.md': '# r\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
    git(dir, ['init', '-q']);
    const fresh = await openRepository(dir);
    expect((await fresh.list()).paths).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
    await writeTree(dir, { 'src/new.ts': 'new\n', 'src/b.ts': 'b changed\n', '.gitignore': 'a.ts\n' });
    await rm(path.join(dir, 'README.md'));
    expect(await fresh.resolveCandidate('src/new.ts')).toEqual({ path: 'src/new.ts', size: 4 });
    expect(await fresh.resolveCandidate('src/b.ts')).toEqual({ path: 'src/b.ts', size: 10 });
    expect(await fresh.resolveCandidate('README.md')).toBeUndefined();
    expect(await fresh.resolveCandidate('src/a.ts')).toBeUndefined();
  });
});
