import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isModelInputError } from '../../src/errors.js';
import type { SkippedClass } from '../../src/repo/index.js';
import { DEFAULT_MAX_FILE_BYTES, openRepository } from '../../src/repo/index.js';
import { runningAsRoot, TempDirs, tryMkfifo, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

function skipped(list: { skipped: SkippedClass[] }, reason: SkippedClass['reason']): SkippedClass | undefined {
  return list.skipped.find((s) => s.reason === reason);
}

describe('openRepository', () => {
  it('stores the realpath of the root', async () => {
    const root = await temp.make();
    await mkdir(path.join(root, 'real'));
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    expect((await openRepository(path.join(root, 'alias'))).root).toBe(path.join(root, 'real'));
    expect(DEFAULT_MAX_FILE_BYTES).toBe(1_048_576);
  });

  it('rejects a missing root or a file with root_invalid naming the path', async () => {
    const root = await temp.make();
    await writeTree(root, { 'file.txt': 'x' });
    for (const bad of [path.join(root, 'missing'), path.join(root, 'file.txt')]) {
      const error: unknown = await openRepository(bad).catch((e: unknown) => e);
      expect(isModelInputError(error) && error.code).toBe('root_invalid');
      expect((error as Error).message).toContain(bad);
    }
  });
});

describe('list and inspect: cheap filters first', () => {
  it('lists without opening files (binary extensions only), then inspects: size cap, extension, NUL sniff', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'ok.txt': 'x'.repeat(100),
      'big.txt': 'x'.repeat(101),
      'big.png': 'x'.repeat(200),
      'logo.png': 'not really an image',
      'Archive.ZIP': 'upper-case extension',
      'data.txt': Buffer.from([0x61, 0x00, 0x62]),
      'late-nul.txt': Buffer.concat([Buffer.alloc(50, 0x61), Buffer.from([0])]),
      'wide.txt': utf16le('hi'),
      empty: '',
    });
    const repo = await openRepository(root, { maxFileBytes: 100, sniffBytes: 40 });
    const listing = await repo.list();
    expect(listing.base).toBe('');
    expect(listing.source).toEqual({ kind: 'walker', reason: 'not_a_git_work_tree' });
    expect(listing.paths).toEqual(['big.txt', 'data.txt', 'empty', 'late-nul.txt', 'ok.txt', 'wide.txt']);
    expect(listing.skipped).toEqual([{ reason: 'binary', count: 3, examples: ['Archive.ZIP', 'big.png', 'logo.png'] }]);
    const inspected = await repo.inspect(listing.paths);
    expect(inspected.files).toEqual([
      { path: 'empty', size: 0 },
      { path: 'late-nul.txt', size: 51 },
      { path: 'ok.txt', size: 100 },
      { path: 'wide.txt', size: 6 },
    ]);
    expect(inspected.skipped).toEqual([
      { reason: 'binary', count: 1, examples: ['data.txt'] },
      { reason: 'too_large', count: 1, examples: ['big.txt'] },
    ]);
    // With the default sniff window the late NUL is found.
    expect(skipped(await (await openRepository(root)).inspect(['late-nul.txt']), 'binary')?.examples).toEqual([
      'late-nul.txt',
    ]);
  });

  it('always skips .git at every level, counting each one once, without descending', async () => {
    const root = await temp.make();
    await writeTree(root, { '.git/config': 'x', '.git/objects/a': 'x', 'sub/.git/HEAD': 'x', 'sub/a.ts': 'x' });
    const listing = await (await openRepository(root, { listing: 'walker' })).list();
    expect(listing.paths).toEqual(['sub/a.ts']);
    expect(listing.skipped).toEqual([{ reason: 'vcs_dir', count: 2, examples: ['.git/', 'sub/.git/'] }]);
  });
});

describe('list and inspect: symlinks and special files', () => {
  it('lists links, then keeps links to files inside the root and skips links that leave it or point at directories', async () => {
    const outside = await temp.make('outside-');
    const root = await temp.make();
    await writeTree(outside, { 'secret.txt': 'secret', 'dir/x.txt': 'x' });
    await writeTree(root, { 'src/main.ts': 'export const a = 1;\n', '.git/config': 'x' });
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'out-link'));
    await symlink(path.join(outside, 'dir'), path.join(root, 'out-dir'));
    await symlink('src/main.ts', path.join(root, 'in-link'));
    await symlink('src', path.join(root, 'in-dir'));
    await symlink('missing.txt', path.join(root, 'dangling'));
    await symlink('.git/config', path.join(root, 'git-link'));

    const repo = await openRepository(root, { listing: 'walker' });
    const listing = await repo.list();
    // Symlinked directories are not entered: `in-dir/main.ts` is not listed.
    expect(listing.paths).toEqual(['dangling', 'git-link', 'in-dir', 'in-link', 'out-dir', 'out-link', 'src/main.ts']);
    expect(listing.skipped).toEqual([{ reason: 'vcs_dir', count: 1, examples: ['.git/'] }]);
    const inspected = await repo.inspect(listing.paths);
    expect(inspected.files).toEqual([
      { path: 'in-link', size: 20 },
      { path: 'src/main.ts', size: 20 },
    ]);
    expect(inspected.skipped).toEqual([
      { reason: 'special_file', count: 1, examples: ['in-dir'] },
      { reason: 'symlink_outside_root', count: 2, examples: ['out-dir', 'out-link'] },
      { reason: 'unreadable', count: 1, examples: ['dangling'] },
      { reason: 'vcs_dir', count: 1, examples: ['git-link'] },
    ]);
  });

  it('reports a FIFO as special_file without opening it', async (ctx) => {
    const root = await temp.make();
    await writeTree(root, { 'a.txt': 'x' });
    if (!tryMkfifo(path.join(root, 'pipe'))) ctx.skip();
    await symlink('pipe', path.join(root, 'pipe-link'));
    const repo = await openRepository(root);
    const listing = await repo.list();
    expect(listing.paths).toEqual(['a.txt', 'pipe-link']);
    expect(listing.skipped).toEqual([{ reason: 'special_file', count: 1, examples: ['pipe'] }]);
    // Inspecting the FIFO (through its link or directly) never blocks on opening it.
    const inspected = await repo.inspect(['a.txt', 'pipe-link', 'pipe']);
    expect(inspected.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(inspected.skipped).toEqual([{ reason: 'special_file', count: 2, examples: ['pipe', 'pipe-link'] }]);
  });

  it('reports unreadable files and directories without failing', async (ctx) => {
    if (runningAsRoot) ctx.skip(); // root reads through chmod 000
    const root = await temp.make();
    await writeTree(root, { 'a.txt': 'x', 'locked.txt': 'x', 'closed/b.txt': 'x' });
    await chmod(path.join(root, 'locked.txt'), 0o000);
    await chmod(path.join(root, 'closed'), 0o000);
    try {
      const repo = await openRepository(root);
      const listing = await repo.list();
      expect(listing.paths).toEqual(['a.txt', 'locked.txt']);
      expect(listing.skipped).toEqual([{ reason: 'unreadable', count: 1, examples: ['closed/'] }]);
      const inspected = await repo.inspect(listing.paths);
      expect(inspected.files.map((f) => f.path)).toEqual(['a.txt']);
      expect(inspected.skipped).toEqual([{ reason: 'unreadable', count: 1, examples: ['locked.txt'] }]);
    } finally {
      await chmod(path.join(root, 'closed'), 0o755);
    }
  });
});

describe('list(subPath)', () => {
  async function fixture(): Promise<string> {
    const root = await temp.make();
    await writeTree(root, {
      '.gitignore': '*.log\nvendor/\n',
      'README.md': 'x',
      'src/main.ts': 'x',
      'src/debug.log': 'x',
      'src/nested/b.ts': 'x',
      'src/vendor/lib.js': 'x',
      'vendor/v.js': 'x',
      'file.txt': 'x',
    });
    return root;
  }

  it('lists only the subtree, with root-relative paths, applying ancestor ignore rules', async () => {
    const repo = await openRepository(await fixture());
    for (const sub of ['src', './src/', 'src//', 'src/nested/..']) {
      const listing = await repo.list(sub);
      expect(listing.base).toBe('src');
      expect(listing.paths).toEqual(['src/main.ts', 'src/nested/b.ts']);
      expect(listing.skipped).toEqual([{ reason: 'ignored', count: 2, examples: ['src/debug.log', 'src/vendor/'] }]);
    }
    expect((await repo.list('src\\nested')).paths).toEqual(['src/nested/b.ts']);
    for (const root of [undefined, '', '.', './']) expect((await repo.list(root)).base).toBe('');
  });

  it('returns nothing but the skip for an ignored sub-path or .git', async () => {
    const root = await fixture();
    await writeTree(root, { '.git/config': 'x' });
    const repo = await openRepository(root);
    expect(await repo.list('vendor')).toMatchObject({
      base: 'vendor',
      paths: [],
      skipped: [{ reason: 'ignored', count: 1, examples: ['vendor/'] }],
    });
    expect((await repo.list('.git')).skipped).toEqual([{ reason: 'vcs_dir', count: 1, examples: ['.git/'] }]);
  });

  it('resolves a sub-path through a symlink to its real directory', async () => {
    const root = await fixture();
    await symlink('src', path.join(root, 'alias'));
    const listing = await (await openRepository(root)).list('alias');
    expect(listing.base).toBe('src');
    expect(listing.paths).toEqual(['src/main.ts', 'src/nested/b.ts']);
  });

  it('rejects escapes, absolute paths, NUL, missing paths and files with path_outside_root', async () => {
    const outside = await temp.make('outside-');
    const root = await fixture();
    await symlink(outside, path.join(root, 'escape'));
    const repo = await openRepository(root);
    const bad = ['..', '../x', '/etc', 'a/../../x', 'src/../..', 'src\0', 'missing', 'file.txt', 'escape', 'C:\\x'];
    for (const sub of bad) {
      const error: unknown = await repo.list(sub).catch((e: unknown) => e);
      expect(isModelInputError(error) && error.code, sub).toBe('path_outside_root');
      const message = (error as Error).message;
      expect(message).toContain(JSON.stringify(sub));
      expect(message).not.toContain(outside);
      expect(message).not.toContain(root);
    }
  });
});

describe('list: large trees', () => {
  it('walks many directories deterministically', async () => {
    const root = await temp.make();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) for (let j = 0; j < 10; j++) files[`d${i}/s${j}/f.ts`] = `${i}-${j}`;
    await writeTree(root, files);
    await writeFile(path.join(root, '.gitignore'), 'd1*/\n');
    const repo = await openRepository(root);
    const first = await repo.list();
    expect(first.paths).toHaveLength(19 * 10 + 1); // plus .gitignore
    expect(first.skipped).toEqual([
      { reason: 'ignored', count: 11, examples: ['d1/', 'd10/', 'd11/', 'd12/', 'd13/'] },
    ]);
    expect(await repo.list()).toEqual(first);
  });
});
