import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RepoProgress } from '../../src/repo/index.js';
import { candidateLineBytes, openRepository } from '../../src/repo/index.js';
import { buildOutline } from '../../src/repo/outline.js';
import { rankPaths, rankFiles } from '../../src/repo/rank.js';
import { git, TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const commit = (root: string, message: string): string =>
  git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', message]);

describe('buildOutline', () => {
  const paths = [
    'README.md',
    'package.json',
    ...Array.from({ length: 6 }, (_, i) => `src/core/f${i}.ts`),
    ...Array.from({ length: 3 }, (_, i) => `src/cli/c${i}.ts`),
    'src/index.ts',
    'src/schema.json',
    ...Array.from({ length: 4 }, (_, i) => `docs/p${i}.md`),
    'scripts/build.sh',
    'empty-ish/x',
  ];

  it('counts files per top directory with their main languages, expanding the largest', () => {
    const { entries, rest } = buildOutline(paths, '', { maxTop: 3, expandTop: 1, maxSub: 2 });
    expect(entries).toEqual([
      {
        dir: 'src/',
        files: 11,
        depth: 1,
        languages: [
          { language: 'TypeScript', files: 10 },
          { language: 'JSON', files: 1 },
        ],
      },
      { dir: 'src/core/', files: 6, depth: 2, languages: [{ language: 'TypeScript', files: 6 }] },
      { dir: 'src/cli/', files: 3, depth: 2, languages: [{ language: 'TypeScript', files: 3 }] },
      { dir: 'docs/', files: 4, depth: 1, languages: [{ language: 'Markdown', files: 4 }] },
      { dir: 'empty-ish/', files: 1, depth: 1, languages: [] },
      {
        dir: '',
        files: 2,
        depth: 1,
        languages: [
          { language: 'JSON', files: 1 },
          { language: 'Markdown', files: 1 },
        ],
      },
    ]);
    expect(rest).toEqual({ dirs: 1, files: 1 });
  });

  it('outlines below a base with root-relative directory names', () => {
    const { entries } = buildOutline(
      paths.filter((p) => p.startsWith('src/')),
      'src',
    );
    expect(entries.map((entry) => [entry.dir, entry.files])).toEqual([
      ['src/core/', 6],
      ['src/cli/', 3],
      ['', 2],
    ]);
  });

  it('stays the same size whatever the number of paths', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `d${i % 500}/s${i % 7}/f${i}.go`);
    const { entries, rest } = buildOutline(many, '');
    expect(entries.length).toBeLessThanOrEqual(12 + 4 * 3 + 1);
    expect(rest.dirs).toBe(500 - 12);
  });
});

describe('rankPaths', () => {
  it('orders paths exactly as rankFiles does without sizes', () => {
    const paths = ['src/b.ts', 'README.md', 'docs/a.md', 'test/x.test.ts', 'package.json', 'src/a.ts', 'yarn.lock'];
    const recent = new Set(['src/b.ts']);
    expect(rankPaths(paths, { recent })).toEqual(
      rankFiles(
        paths.map((p) => ({ path: p })),
        { recent },
      ).map(({ path: p, score }) => ({ path: p, score })),
    );
  });
});

describe('survey', () => {
  it('inspects a small listing whole: candidates best first with sizes, inspection skips reported', async () => {
    const outside = await temp.make('outside-');
    const root = await temp.make();
    await writeTree(outside, { 'secret.txt': 'secret' });
    await writeTree(root, {
      'README.md': '# Project\n\nDoes things.\n',
      'package.json': '{"name":"p"}\n',
      'src/index.ts': 'export const x = 1;\n',
      'src/blob.txt': Buffer.from([1, 0, 2]),
      'big.md': 'x'.repeat(300),
      '.gitignore': 'dist/\n',
      'dist/out.js': 'x',
    });
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'leak.md'));
    const survey = await (await openRepository(root, { maxFileBytes: 200 })).survey();
    expect(survey.total).toBe(7);
    expect(survey.inspected).toBe(7);
    expect(survey.history).toBe(false);
    expect(survey.candidates.map((c) => [c.path, c.size])).toEqual([
      ['README.md', 24],
      ['package.json', 13],
      ['src/index.ts', 20],
      ['.gitignore', 6],
    ]);
    expect(survey.candidates[0]?.reasons).toContain('root README (+100)');
    expect(survey.skipped).toEqual([
      { reason: 'binary', count: 1, examples: ['src/blob.txt'] },
      { reason: 'ignored', count: 1, examples: ['dist/'] },
      { reason: 'symlink_outside_root', count: 1, examples: ['leak.md'] },
      { reason: 'too_large', count: 1, examples: ['big.md'] },
    ]);
    expect(survey.outline.map((entry) => entry.dir)).toEqual(['src/', '']);
  });

  it('on a larger listing inspects only as many candidates as the budget needs, best first', async () => {
    const root = await temp.make();
    const files: Record<string, string> = { 'README.md': '# Big\n', 'go.mod': 'module big\n' };
    for (let i = 0; i < 40; i++) for (let j = 0; j < 15; j++) files[`pkg${i}/sub${j}/file_${j}.go`] = `package p${i}\n`;
    await writeTree(root, files);
    const events: RepoProgress[] = [];
    const repo = await openRepository(root, { onProgress: (event) => events.push(event) });
    const survey = await repo.survey(undefined, { candidateBytes: 1024 });
    expect(survey.total).toBe(602);
    expect(survey.inspected).toBeLessThan(200);
    expect(survey.candidates[0]?.path).toBe('README.md');
    expect(survey.candidates[1]?.path).toBe('go.mod');
    const bytes = survey.candidates.reduce((sum, file) => sum + candidateLineBytes(file), 0);
    expect(bytes).toBeGreaterThanOrEqual(1024);
    expect(bytes - candidateLineBytes(survey.candidates.at(-1)!)).toBeLessThan(1024);
    expect(survey.outline[0]).toMatchObject({ files: 15, languages: [{ language: 'Go', files: 15 }] });
    expect(survey.outlineRest).toEqual({ dirs: 40 - 12, files: 28 * 15 });
    // Progress: the walk reports as it goes, then the listing, then the inspection.
    expect(events.some((event) => event.phase === 'listing')).toBe(true);
    expect(events).toContainEqual({
      phase: 'listed',
      files: 602,
      source: { kind: 'walker', reason: 'not_a_git_work_tree' },
    });
    expect(events.at(-1)).toEqual({ phase: 'inspecting', done: survey.inspected });
  });

  it('is not broken by a progress callback that throws', async () => {
    const root = await temp.make();
    await writeTree(root, { 'README.md': '# r\n', 'src/a.ts': 'x\n' });
    const repo = await openRepository(root, {
      onProgress: () => {
        throw new Error('a broken progress sink');
      },
    });
    expect((await repo.survey()).candidates.map((c) => c.path)).toEqual(['README.md', 'src/a.ts']);
    expect((await repo.read(['README.md'], { perFileBytes: 100, totalBytes: 100 })).files).toHaveLength(1);
  });

  it('keeps inspecting past binary files that rank high', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'README.md': Buffer.from('# looks like text\0but is not'),
      'package.json': Buffer.from([0, 1, 2]),
      'src/main.ts': 'console.log(1);\n',
    });
    const survey = await (await openRepository(root)).survey();
    expect(survey.candidates.map((c) => c.path)).toEqual(['src/main.ts']);
    expect(survey.skipped).toEqual([{ reason: 'binary', count: 2, examples: ['README.md', 'package.json'] }]);
  });

  it('ranks files changed by recent commits higher, skipping bulk commits, when git history is available', async () => {
    const root = await temp.make('history-');
    git(root, ['init', '-q']);
    const files: Record<string, string> = { 'README.md': '# r\n' };
    for (let i = 0; i < 120; i++) files[`lib/part${i}/mod.py`] = `x = ${i}\n`;
    await writeTree(root, files);
    git(root, ['add', '-A']);
    commit(root, 'bulk import: 121 files, not a recency signal');
    await writeTree(root, { 'lib/part7/mod.py': 'x = 7  # changed\n', 'lib/part9/new.py': 'y = 1\n' });
    git(root, ['add', '-A']);
    commit(root, 'small change');

    const survey = await (await openRepository(root)).survey();
    expect(survey.history).toBe(true);
    const changed = survey.candidates.filter((c) => c.reasons.includes('changed in recent commits (+10)'));
    expect(changed.map((c) => c.path).sort()).toEqual(['lib/part7/mod.py', 'lib/part9/new.py']);
    expect(
      survey.candidates
        .slice(1, 3)
        .map((c) => c.path)
        .sort(),
    ).toEqual(['lib/part7/mod.py', 'lib/part9/new.py']);

    const without = await (await openRepository(root, { historyCommits: 0 })).survey();
    expect(without.history).toBe(false);
    expect(without.candidates.some((c) => c.reasons.includes('changed in recent commits (+10)'))).toBe(false);
    expect((await (await openRepository(root, { listing: 'walker' })).survey()).history).toBe(false);
  });

  it('has no history in a work tree without commits', async () => {
    const root = await temp.make();
    git(root, ['init', '-q']);
    await writeTree(root, { 'a.md': 'x\n' });
    const survey = await (await openRepository(root)).survey();
    expect(survey.source).toEqual({ kind: 'git' });
    expect(survey.history).toBe(false);
  });
});

describe('resolveCandidate accepts any listed file, shown or not', () => {
  it('accepts a listed file the survey never inspected', async () => {
    const root = await temp.make();
    const files: Record<string, string> = { 'README.md': '# r\n' };
    for (let i = 0; i < 300; i++) files[`deep/a/b/c/f${i}.txt`] = `file ${i}\n`;
    await writeTree(root, files);
    const repo = await openRepository(root);
    const survey = await repo.survey(undefined, { candidateBytes: 1024 });
    const shown = new Set(survey.candidates.map((c) => c.path));
    const unseen = 'deep/a/b/c/f299.txt';
    expect(shown.has(unseen)).toBe(false);
    expect(await repo.resolveCandidate(unseen)).toEqual({ path: unseen, size: 9 });
    expect(await repo.resolveCandidate('deep/a/b/c/f300.txt')).toBeUndefined();
  });
});
