import { appendFile, mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RepoProgress, RepositoryOptions, SurveyCache } from '../../src/repo/index.js';
import { createSurveyCache, openRepository } from '../../src/repo/index.js';
import { git, TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
const caches: SurveyCache[] = [];
afterEach(() => caches.splice(0).forEach((cache) => cache.close()));
afterAll(() => temp.cleanup());

function newCache(options: Parameters<typeof createSurveyCache>[0] = {}): SurveyCache {
  const cache = createSurveyCache(options);
  caches.push(cache);
  return cache;
}

/** One survey through the cache; `listed` tells whether the tree was listed (a kept survey lists nothing). */
async function survey(root: string, cache: SurveyCache, options: RepositoryOptions = {}, sub?: string) {
  const events: RepoProgress[] = [];
  const repo = await openRepository(root, { ...options, cache, onProgress: (event) => events.push(event) });
  const result = await repo.survey(sub);
  return { result, listed: events.some((event) => event.phase === 'listed') };
}

/** A survey made without any cache: what the cached one must equal. */
async function fresh(root: string, options: RepositoryOptions = {}, sub?: string) {
  return (await openRepository(root, options)).survey(sub);
}

/** Surveys until one is served from the cache (bounded); fails if none is. */
async function warmUp(root: string, cache: SurveyCache, options: RepositoryOptions = {}, sub?: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    if (!(await survey(root, cache, options, sub)).listed) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no survey was served from the cache');
}

const files = {
  'README.md': '# demo\n',
  'package.json': '{"name":"demo"}\n',
  'src/index.ts': 'export const a = 1;\n',
  'src/deep/util.ts': 'export const u = 2;\n',
  'docs/guide.md': '# guide\n',
  '.gitignore': 'build/\n',
  'build/out.js': 'compiled\n',
};

const commitAll = (root: string): void => {
  git(root, ['add', '-A']);
  git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'c']);
};

type Change = [label: string, change: (root: string) => Promise<void>];
const changes: Change[] = [
  ['a file added', (root) => writeFile(path.join(root, 'src/deep/added.ts'), 'export const n = 3;\n')],
  ['a file added in a new directory', (root) => writeTree(root, { 'lib/new/thing.ts': 'export {};\n' })],
  ['a file removed', (root) => rm(path.join(root, 'docs/guide.md'))],
  ['a file changed', (root) => appendFile(path.join(root, 'src/index.ts'), 'export const more = "longer now";\n')],
  ['a file renamed', (root) => rename(path.join(root, 'src/index.ts'), path.join(root, 'src/main.ts'))],
  ['a file newly ignored', (root) => appendFile(path.join(root, '.gitignore'), 'src/deep/\n')],
  ['a file ignored by a new nested .gitignore', (root) => writeTree(root, { 'src/.gitignore': 'index.ts\n' })],
  ['a file newly ignored by .summarizeignore', (root) => writeTree(root, { '.summarizeignore': 'docs/\n' })],
  ['a directory newly re-included', (root) => writeFile(path.join(root, '.gitignore'), '')],
  [
    'a file added in a directory that was empty',
    async (root) => {
      await writeFile(path.join(root, 'empty/first.md'), '# first\n');
    },
  ],
];

describe.each([
  ['git work tree', true],
  ['plain directory (walker)', false],
])('survey cache, %s', (_label, useGit) => {
  async function makeRoot(): Promise<string> {
    const root = await temp.make('cache-');
    await writeTree(root, files);
    await mkdir(path.join(root, 'empty'));
    if (useGit) {
      git(root, ['init', '-q']);
      commitAll(root);
    }
    return root;
  }

  it('serves a repeated survey of an unchanged tree without listing it, equal to a fresh one', async () => {
    const root = await makeRoot();
    const cache = newCache();
    const first = await survey(root, cache);
    expect(first.listed).toBe(true);
    await warmUp(root, cache);
    const kept = await survey(root, cache);
    expect(kept.listed).toBe(false);
    expect(kept.result).toEqual(await fresh(root));
    expect(kept.result.source.kind).toBe(useGit ? 'git' : 'walker');
  });

  it.each(changes)('sees %s at the next call', async (_change, change) => {
    const root = await makeRoot();
    const cache = newCache();
    await warmUp(root, cache);
    const before = await fresh(root);
    await change(root);
    const after = await survey(root, cache);
    expect(after.listed).toBe(true);
    const expected = await fresh(root);
    expect(expected).not.toEqual(before);
    expect(after.result).toEqual(expected);
    // And once the watch has caught up, the cache serves the new state.
    await warmUp(root, cache);
    expect((await survey(root, cache)).result).toEqual(expected);
  });

  it('watches a directory created after the watch began', async () => {
    const root = await makeRoot();
    const cache = newCache();
    await warmUp(root, cache);
    await mkdir(path.join(root, 'later/inner'), { recursive: true });
    // The empty directories change no survey; the cache is used again once they are watched.
    await warmUp(root, cache);
    await writeFile(path.join(root, 'later/inner/file.md'), '# later\n');
    const after = await survey(root, cache);
    expect(after.listed).toBe(true);
    expect(after.result.candidates.map((file) => file.path)).toContain('later/inner/file.md');
    expect(after.result).toEqual(await fresh(root));
  });

  it('keeps one survey per sub-path and sees changes below each', async () => {
    const root = await makeRoot();
    const cache = newCache();
    await warmUp(root, cache, {}, 'src');
    await writeFile(path.join(root, 'src/deep/new.ts'), 'export {};\n');
    const after = await survey(root, cache, {}, 'src');
    expect(after.listed).toBe(true);
    expect(after.result).toEqual(await fresh(root, {}, 'src'));
  });
});

describe('survey cache and git', () => {
  it('sees an ignored file becoming tracked (the index changed, not the directory)', async () => {
    const root = await temp.make('cache-index-');
    await writeTree(root, files);
    git(root, ['init', '-q']);
    commitAll(root);
    const cache = newCache();
    await warmUp(root, cache);
    git(root, ['add', '-f', 'build/out.js']);
    const after = await survey(root, cache);
    expect(after.listed).toBe(true);
    expect(after.result.candidates.map((file) => file.path)).toContain('build/out.js');
    expect(after.result).toEqual(await fresh(root));
  });

  it('sees a new commit (the recency signal) and a touched file', async () => {
    const root = await temp.make('cache-commit-');
    await writeTree(root, files);
    git(root, ['init', '-q']);
    commitAll(root);
    const cache = newCache();
    await warmUp(root, cache);
    await writeFile(path.join(root, 'docs/guide.md'), '# guide, edited\n');
    commitAll(root);
    expect((await survey(root, cache)).result).toEqual(await fresh(root));
    await warmUp(root, cache);
    const now = new Date(Date.now() + 5000);
    await utimes(path.join(root, 'README.md'), now, now);
    expect((await survey(root, cache)).listed).toBe(true);
  });
});

describe('survey cache bounds', () => {
  it('keeps at most maxRoots roots, dropping the least recently asked about', async () => {
    const cache = newCache({ maxRoots: 2 });
    const roots = await Promise.all(
      [0, 1, 2].map(async () => {
        const root = await temp.make('cache-roots-');
        await writeTree(root, files);
        return root;
      }),
    );
    for (const root of roots) await survey(root, cache);
    expect(cache.roots).toBe(2);
  });

  it('drops a root not asked about for idleMs, with its watches', async () => {
    const cache = newCache({ idleMs: 60 });
    const root = await temp.make('cache-idle-');
    await writeTree(root, files);
    await warmUp(root, cache);
    expect(cache.roots).toBe(1);
    for (let waited = 0; waited < 3000 && cache.roots > 0; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cache.roots).toBe(0);
    expect((await survey(root, cache)).listed).toBe(true);
  });

  it('does not cache a tree with more directories than the cap allows, and stays correct', async () => {
    const cache = newCache({ maxDirectories: 3 });
    const root = await temp.make('cache-cap-');
    await writeTree(root, files);
    for (let attempt = 0; attempt < 5; attempt++) {
      const { listed, result } = await survey(root, cache);
      expect(listed).toBe(true);
      expect(result).toEqual(await fresh(root));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
