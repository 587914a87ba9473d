/**
 * The `git ls-files` fast path against the walker: the same paths and the same skip classes for the same tree,
 * and a fallback to the walker whenever git cannot answer.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepoListing } from '../../src/repo/index.js';
import { openRepository } from '../../src/repo/index.js';
import { runGit } from '../../src/repo/gitProcess.js';
import { git, TempDirs, writeTree } from './fixture.js';
import { GIT_FIXTURE } from './gitFixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const commit = (root: string, message: string): string =>
  git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', message]);

/** Everything the reader honours beyond git's own rules, on top of the gitignore fixture. */
const EXTRA_FIXTURE: Record<string, string | Buffer> = {
  '.summarizeignore': ['# project-level', 'notes/', '*.draft.md', '!keep.draft.md'].join('\n'),
  'notes/todo.md': 'x\n',
  'notes/deep/more.md': 'x\n',
  'plan.draft.md': 'x\n',
  'keep.draft.md': 'kept: re-included within .summarizeignore\n',
  'src/deep/plan.draft.md': 'x\n',
  'lib/.ignore': ['gen/', '*.snap', '!keep.snap'].join('\n'),
  'lib/gen/out.ts': 'x\n',
  'lib/a.snap': 'x\n',
  'lib/keep.snap': 'kept\n',
  'lib/code.ts': 'export {};\n',
  'lib/sub/b.snap': 'x\n',
  'only-ignored/x.log': 'every file here is ignored\n',
  'quiet/.gitignore': '.ignore\n',
  'quiet/.ignore': '*.md\n',
  'quiet/a.md': 'kept: the .ignore here is itself ignored by git, so it does not count\n',
  'img/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
  'img/ICON.ICO': 'upper-case binary extension\n',
  'img/readme.txt': 'kept\n',
};

/** A git work tree holding the fixtures, some files committed, plus an untracked nested repository. */
async function makeGitTree(): Promise<string> {
  const root = await temp.make('gitpath-');
  git(root, ['init', '-q']);
  await writeTree(root, { ...GIT_FIXTURE, ...EXTRA_FIXTURE });
  git(root, ['add', 'README.md', 'src/main.ts', 'a/b/code.js', '.gitignore', 'lib/code.ts']);
  commit(root, 'initial');
  const nested = path.join(root, 'nested-repo');
  await mkdir(nested);
  git(nested, ['init', '-q']);
  await writeTree(nested, { '.gitignore': '*.tmp\n', 'n.ts': 'x\n', 'drop.tmp': 'x\n', 'deep/n2.md': 'x\n' });
  return root;
}

function comparable(listing: RepoListing): Pick<RepoListing, 'paths' | 'skipped'> {
  return { paths: listing.paths, skipped: listing.skipped };
}

describe('git fast path', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeGitTree();
  });

  it('gives the same paths and skips as the walker (nested ignores, negations, dir-only, anchored, extra layers)', async () => {
    const viaGit = await (await openRepository(root)).list();
    const viaWalker = await (await openRepository(root, { listing: 'walker' })).list();
    expect(viaGit.source).toEqual({ kind: 'git' });
    expect(viaWalker.source).toEqual({ kind: 'walker', reason: 'disabled' });
    expect(comparable(viaGit)).toEqual(comparable(viaWalker));

    // The fixture really exercises the rules.
    const paths = viaGit.paths;
    for (const kept of [
      'a/out/f.js',
      '!bang/keep.md',
      'keep.draft.md',
      'lib/keep.snap',
      'img/readme.txt',
      'quiet/a.md',
    ]) {
      expect(paths).toContain(kept);
    }
    expect(paths).toContain('nested-repo/n.ts');
    expect(paths).toContain('nested-repo/deep/n2.md');
    for (const dropped of [
      'notes/todo.md',
      'plan.draft.md',
      'src/deep/plan.draft.md',
      'lib/gen/out.ts',
      'lib/a.snap',
    ]) {
      expect(paths).not.toContain(dropped);
    }
    expect(paths).not.toContain('lib/sub/b.snap');
    expect(paths).not.toContain('nested-repo/drop.tmp');
    expect(paths).not.toContain('img/logo.png');
    const ignored = viaGit.skipped.find((entry) => entry.reason === 'ignored');
    expect(ignored?.count).toBeGreaterThan(15);
    expect(viaGit.skipped.find((entry) => entry.reason === 'binary')).toEqual({
      reason: 'binary',
      count: 2,
      examples: ['img/ICON.ICO', 'img/logo.png'],
    });
    expect(viaGit.skipped.find((entry) => entry.reason === 'vcs_dir')).toEqual({
      reason: 'vcs_dir',
      count: 2,
      examples: ['.git/', 'nested-repo/.git/'],
    });
  });

  it('lists exactly git ls-files -co --exclude-standard, minus the extra layers and binary extensions', async () => {
    const gitOutput = git(root, ['ls-files', '-co', '--exclude-standard', '-z'])
      .split('\0')
      .filter((entry) => entry !== '');
    const listing = await (await openRepository(root)).list();
    const fromGit = gitOutput.filter((entry) => !entry.endsWith('/'));
    for (const listed of listing.paths) {
      if (!listed.startsWith('nested-repo/')) expect(fromGit).toContain(listed);
    }
    const left = fromGit.filter((entry) => !listing.paths.includes(entry)).sort();
    expect(left).toEqual([
      'img/ICON.ICO',
      'img/logo.png',
      'lib/a.snap',
      'lib/gen/out.ts',
      'lib/sub/b.snap',
      // Names with control characters are never listed (skipped as unsafe_name).
      'nl\ndir/.gitignore',
      'nl\ndir/b.txt',
      'notes/deep/more.md',
      'notes/todo.md',
      'plan.draft.md',
      'src/deep/plan.draft.md',
    ]);
  });

  it.each(['a', 'a/b', '!bang', 'lib', 'notes', 'nested-repo', 'src'])(
    'agrees with the walker below %s',
    async (sub) => {
      const viaGit = await (await openRepository(root)).list(sub);
      const viaWalker = await (await openRepository(root, { listing: 'walker' })).list(sub);
      expect(comparable(viaGit)).toEqual(comparable(viaWalker));
      expect(viaGit.paths.every((entry) => entry.startsWith(`${sub}/`))).toBe(true);
    },
  );

  it('never starts the repository core.fsmonitor program', async () => {
    const marker = path.join(await temp.make('fsmonitor-'), 'ran');
    const hook = path.join(root, '.git', 'fsmonitor-hook.sh');
    await writeFile(hook, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
    await chmod(hook, 0o755);
    git(root, ['config', 'core.fsmonitor', hook]);
    try {
      expect((await (await openRepository(root)).list()).source).toEqual({ kind: 'git' });
      expect(existsSync(marker)).toBe(false);
    } finally {
      git(root, ['config', '--unset', 'core.fsmonitor']);
    }
  });

  it('ignores GIT_DIR and other GIT_* variables of the calling process', async () => {
    const other = await temp.make('other-');
    git(other, ['init', '-q']);
    const saved = process.env['GIT_DIR'];
    process.env['GIT_DIR'] = path.join(other, '.git');
    try {
      const listing = await (await openRepository(root)).list();
      expect(listing.source).toEqual({ kind: 'git' });
      expect(listing.paths).toContain('src/main.ts');
    } finally {
      if (saved === undefined) delete process.env['GIT_DIR'];
      else process.env['GIT_DIR'] = saved;
    }
  });

  it('lists a tracked file git still knows after it was deleted; inspection reports it unreadable', async () => {
    const tree = await temp.make('deleted-');
    git(tree, ['init', '-q']);
    await writeTree(tree, { 'kept.md': 'x\n', 'gone.md': 'x\n' });
    git(tree, ['add', '-A']);
    commit(tree, 'two files');
    await rm(path.join(tree, 'gone.md'));
    const repo = await openRepository(tree);
    const listing = await repo.list();
    expect(listing.paths).toEqual(['gone.md', 'kept.md']);
    expect((await repo.inspect(listing.paths)).skipped).toEqual([
      { reason: 'unreadable', count: 1, examples: ['gone.md'] },
    ]);
    expect(await repo.resolveCandidate('gone.md')).toBeUndefined();
  });
});

describe('git fast path: falling back to the walker', () => {
  let root: string;
  let walker: RepoListing;
  let fakes: string;
  beforeAll(async () => {
    root = await makeGitTree();
    walker = await (await openRepository(root, { listing: 'walker' })).list();
    fakes = await temp.make('fake-git-');
    await writeFile(path.join(fakes, 'failing-git'), '#!/bin/sh\necho "fatal: broken" >&2\nexit 128\n');
    // `exec` so that killing the process kills the sleep itself.
    await writeFile(path.join(fakes, 'hanging-git'), '#!/bin/sh\nexec sleep 60\n');
    await writeFile(path.join(fakes, 'chatty-git'), '#!/bin/sh\nexec yes src/main.ts\n');
    for (const name of ['failing-git', 'hanging-git', 'chatty-git']) await chmod(path.join(fakes, name), 0o755);
  });

  it.each([
    ['git is missing', { gitCommand: '/nonexistent/git' }, 'git_unavailable'],
    ['git fails', { gitCommand: 'FAKES/failing-git' }, 'git_failed'],
    ['git hangs past the timeout', { gitCommand: 'FAKES/hanging-git', gitTimeoutMs: 300 }, 'git_timeout'],
  ] as const)('when %s', async (_label, options, reason) => {
    const gitCommand = options.gitCommand.replace('FAKES', fakes);
    const listing = await (await openRepository(root, { ...options, gitCommand })).list();
    expect(listing.source).toEqual({ kind: 'walker', reason });
    expect(comparable(listing)).toEqual(comparable(walker));
  });

  it('when git prints more than the output cap (the process is killed)', async () => {
    const result = await runGit([], {
      command: path.join(fakes, 'chatty-git'),
      cwd: root,
      timeoutMs: 10_000,
      maxBytes: 4096,
    });
    expect(result).toEqual({ ok: false, reason: 'git_output_too_large' });
  });

  it('when the root is not a git work tree (a parent repository is not used)', async () => {
    const listing = await (await openRepository(path.join(root, 'a'))).list();
    expect(listing.source).toEqual({ kind: 'walker', reason: 'not_a_git_work_tree' });
  });
});
