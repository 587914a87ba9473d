import { describe, expect, it } from 'vitest';

import { rankFiles, scoreFile } from '../../src/repo/rank.js';
import type { RankInput } from '../../src/repo/rank.js';

const DAY = 24 * 60 * 60 * 1000;

function score(path: string, size = 1000): number {
  return scoreFile({ path, size }).score;
}

describe('scoreFile', () => {
  it('puts the root README above manifests, entry points, docs and deep source files', () => {
    const readme = score('README.md');
    expect(readme).toBeGreaterThan(score('package.json'));
    expect(score('package.json')).toBeGreaterThan(score('src/index.ts'));
    expect(score('src/index.ts')).toBeGreaterThan(score('docs/guide.md'));
    expect(score('docs/guide.md')).toBeGreaterThan(score('src/lib/deep/util/helpers.ts'));
    expect(score('packages/core/README.md')).toBeLessThan(readme);
    expect(score('packages/core/README.md')).toBeGreaterThan(score('packages/core/src/parser.ts'));
  });

  it('recognises manifests and entry points of several ecosystems', () => {
    for (const manifest of ['pyproject.toml', 'Cargo.toml', 'go.mod', 'pom.xml', 'Gemfile', 'App.csproj', 'Makefile']) {
      expect(scoreFile({ path: manifest, size: 500 }).reasons).toContain('root manifest (+80)');
    }
    for (const entry of ['main.py', 'cli.js', 'app/__main__.py', 'src/lib.rs', 'cmd/tool/main.go', 'server.ts']) {
      expect(scoreFile({ path: entry, size: 500 }).reasons).toContain('entry point (+50)');
    }
    expect(scoreFile({ path: 'src/index.d.ts', size: 500 }).reasons).not.toContain('entry point (+50)');
  });

  it('penalises lock, vendored, generated, test and fixture files below ordinary source', () => {
    const source = score('src/parser.ts');
    for (const path of [
      'package-lock.json',
      'yarn.lock',
      'Cargo.lock',
      'vendor/lib/thing.go',
      'node_modules/x/index.js',
      'dist/index.js',
      'build/out.js',
      'public/app.min.js',
      'test/parser.test.ts',
      'src/parser.spec.ts',
      'pkg/parser_test.go',
      'test/fixtures/repo/README.md',
    ]) {
      expect(score(path), path).toBeLessThan(source);
    }
    expect(scoreFile({ path: 'package-lock.json', size: 5000 }).reasons).toContain('lock file (-80)');
    expect(scoreFile({ path: 'vendor/a.go', size: 5000 }).reasons).toContain('vendored (-60)');
    expect(scoreFile({ path: 'tests/a.py', size: 5000 }).reasons).toContain('test (-40)');
  });

  it('penalises very small and very large files', () => {
    expect(score('src/a.ts', 10)).toBeLessThan(score('src/a.ts', 1000));
    expect(score('src/a.ts', 300 * 1024)).toBeLessThan(score('src/a.ts', 1000));
  });

  it('gives a recency bonus only when both mtime and now are known and within 30 days', () => {
    const now = Date.UTC(2026, 0, 31);
    const base = score('src/a.ts');
    expect(scoreFile({ path: 'src/a.ts', size: 1000, mtimeMs: now - 2 * DAY }, { now }).score).toBe(base + 5);
    expect(scoreFile({ path: 'src/a.ts', size: 1000, mtimeMs: now - 40 * DAY }, { now }).score).toBe(base);
    expect(scoreFile({ path: 'src/a.ts', size: 1000, mtimeMs: now - 2 * DAY }).score).toBe(base);
  });

  it('explains every point of the score with a reason', () => {
    const ranked = scoreFile({ path: 'test/fixtures/big.test.ts', size: 300 * 1024 });
    const total = ranked.reasons.reduce((sum, reason) => sum + Number(/\(([+-]\d+)\)$/.exec(reason)?.[1]), 0);
    expect(total).toBe(ranked.score);
    expect(ranked.reasons.length).toBeGreaterThanOrEqual(4);
  });
});

describe('rankFiles', () => {
  const files: RankInput[] = [
    { path: 'src/lib/deep/util/helpers.ts', size: 900 },
    { path: 'yarn.lock', size: 90_000 },
    { path: 'src/b.ts', size: 500 },
    { path: 'README.md', size: 2000 },
    { path: 'src/a.ts', size: 500 },
    { path: 'package.json', size: 700 },
  ];

  it('orders by score, then by path', () => {
    const ranked = rankFiles(files).map((file) => file.path);
    expect(ranked[0]).toBe('README.md');
    expect(ranked[1]).toBe('package.json');
    expect(ranked.indexOf('src/a.ts')).toBe(ranked.indexOf('src/b.ts') - 1);
    expect(ranked.at(-1)).toBe('yarn.lock');
  });

  it('is deterministic whatever the input order, and does not mutate its input', () => {
    const before = JSON.stringify(files);
    const first = rankFiles(files);
    const reversed = rankFiles([...files].reverse());
    expect(reversed).toEqual(first);
    expect(JSON.stringify(files)).toBe(before);
  });
});

describe('README detection', () => {
  it('matches README files, not files whose name merely starts with readme', async () => {
    const { isReadmePath } = await import('../../src/repo/rank.js');
    expect(isReadmePath('README')).toBe(true);
    expect(isReadmePath('docs/readme.rst')).toBe(true);
    expect(isReadmePath('README.de.md')).toBe(true);
    expect(isReadmePath('src/models/readmeFacts.ts')).toBe(false);
    expect(isReadmePath('readme-generator.js')).toBe(false);
  });
});
