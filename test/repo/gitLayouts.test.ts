/**
 * Work trees whose `.git` is a file naming the git directory, made with real git: a linked worktree (`git worktree
 * add`, whose `info/exclude` is the main repository's), a submodule's checkout, `git init --separate-git-dir` (an
 * absolute `gitdir:`, and the same rewritten relative). Each is listed on the git fast path and by the walker with
 * the repository's ignore rules, its surveys are kept and dropped as a plain repository's are, and a `.git` file that
 * names no git directory is a clear `repo_unreadable`, never ENOTDIR. The server and CLI fronts: test/app/gitLayouts.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelInputError } from '../../src/errors.js';
import type { RepoProgress, SurveyCache } from '../../src/repo/index.js';
import { createSurveyCache, openRepository } from '../../src/repo/index.js';
import { findGitDirectories } from '../../src/repo/gitDirectory.js';
import { makeGitLayouts, type GitLayouts } from './gitLayoutsFixture.js';
import { TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
let layouts: GitLayouts;
beforeAll(async () => {
  layouts = await makeGitLayouts(temp);
});
afterAll(() => temp.cleanup());

const caches: SurveyCache[] = [];
afterEach(() => caches.splice(0).forEach((cache) => cache.close()));

async function listed(root: string, listing: 'auto' | 'walker') {
  return (await openRepository(root, { listing })).list();
}

describe('.git as a file naming the git directory', () => {
  const cases = ['worktree', 'submodule', 'separate', 'relative'] as const;

  it.each(cases)('%s: the git directory and the common one are found as git finds them', (layout) => {
    const { root, gitDir, commonDir } = layouts[layout];
    expect(findGitDirectories(root)).toEqual({ gitDir, commonDir });
  });

  it.each(cases)('%s: git lists it, with the repository ignore rules, `.git` skipped as vcs_dir', async (layout) => {
    const listing = await listed(layouts[layout].root, 'auto');
    expect(listing.source).toEqual({ kind: 'git' });
    expect(listing.paths).toEqual(['.gitignore', 'README.md', 'src/main.ts']);
    const skipped = Object.fromEntries(listing.skipped.map((entry) => [entry.reason, entry.examples]));
    expect(skipped['vcs_dir']).toEqual(['.git']);
    expect(skipped['ignored']).toEqual(expect.arrayContaining(['build/', 'secret.env']));
  });

  it.each(cases)(
    '%s: the walker gives the same paths (info/exclude read from the common directory)',
    async (layout) => {
      const listing = await listed(layouts[layout].root, 'walker');
      expect(listing.source.kind).toBe('walker');
      expect(listing.paths).toEqual(['.gitignore', 'README.md', 'src/main.ts']);
    },
  );

  it.each(cases)('%s: a path check and a read agree with the listing', async (layout) => {
    const repo = await openRepository(layouts[layout].root);
    expect(await repo.resolveCandidate('secret.env')).toBeUndefined();
    expect((await repo.resolveCandidate('src/main.ts'))?.path).toBe('src/main.ts');
  });

  it('a linked worktree: its survey is kept, and a change to the shared info/exclude is seen', async () => {
    const { root, commonDir } = layouts.worktree;
    const notes = path.join(root, 'notes.md');
    await writeFile(notes, '# notes\n');
    const cache = createSurveyCache();
    caches.push(cache);
    const survey = async () => {
      const events: RepoProgress[] = [];
      const repo = await openRepository(root, { cache, onProgress: (event) => events.push(event) });
      const result = await repo.survey();
      return { result, listed: events.some((event) => event.phase === 'listed') };
    };
    let kept = false;
    for (let attempt = 0; attempt < 80 && !kept; attempt++) {
      kept = !(await survey()).listed;
      if (!kept) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    try {
      expect(kept).toBe(true);
      // An untracked file newly excluded in the main repository's info/exclude (a tracked one stays listed).
      await appendFile(path.join(commonDir, 'info', 'exclude'), 'notes.md\n');
      const after = await survey();
      expect(after.listed).toBe(true);
      expect(after.result.candidates.map((candidate) => candidate.path)).not.toContain('notes.md');
    } finally {
      await writeFile(path.join(commonDir, 'info', 'exclude'), 'secret.env\n');
      await rm(notes);
    }
  });
});

describe('a .git file that names no git directory', () => {
  const broken: Record<string, string> = {
    garbled: 'this is not a gitdir line\n',
    empty: '',
    missing: 'gitdir: ../nowhere/at/all\n',
  };

  it.each(Object.keys(broken))('%s: repo_unreadable saying what is wrong, never ENOTDIR', async (kind) => {
    const root = await temp.make('broken-');
    await writeTree(root, { 'README.md': '# x\n', '.git': broken[kind] ?? '' });
    for (const listing of ['auto', 'walker'] as const) {
      const error = await listed(root, listing).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelInputError);
      expect((error as ModelInputError).code).toBe('repo_unreadable');
      expect((error as Error).message).toMatch(/\.git .*gitdir: <path>/);
      expect((error as Error).message).not.toContain('ENOTDIR');
    }
  });

  it('a .git that is neither a file nor a directory is refused the same way', async () => {
    const root = await temp.make('broken-');
    await writeTree(root, { 'README.md': '# x\n' });
    try {
      execFileSync('mkfifo', [path.join(root, '.git')], { stdio: 'ignore' });
    } catch {
      return; // no mkfifo here
    }
    await expect(listed(root, 'walker')).rejects.toMatchObject({ code: 'repo_unreadable' });
  });

  it('a commondir that names nothing leaves the git directory its own common directory', async () => {
    const root = await temp.make('commondir-');
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'commondir'), '../../gone\n');
    expect(findGitDirectories(root)).toEqual({
      gitDir: path.join(root, '.git'),
      commonDir: path.join(root, '.git'),
    });
  });
});
