import { afterAll, describe, expect, it } from 'vitest';
import ignore from 'ignore';
import { join } from 'node:path';

import { readIgnoreFile, rebasePattern, RuleLayer } from '../../src/repo/ignoreRules.js';
import { openRepository } from '../../src/repo/index.js';
import { git, TempDirs, writeTree } from './fixture.js';
import { GIT_FIXTURE } from './gitFixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('rebasePattern', () => {
  it('leaves root patterns alone and drops blanks and comments', () => {
    expect(rebasePattern('*.log', '')).toBe('*.log');
    expect(rebasePattern('', 'a')).toBeUndefined();
    expect(rebasePattern('   ', 'a')).toBeUndefined();
    expect(rebasePattern('# note', 'a')).toBeUndefined();
    expect(rebasePattern('!', 'a')).toBeUndefined();
  });

  it('anchors patterns with a slash and lets the others match at any depth', () => {
    expect(rebasePattern('*.log', 'a/b')).toBe('a/b/**/*.log');
    expect(rebasePattern('!keep.log', 'a')).toBe('!a/**/keep.log');
    expect(rebasePattern('cache/', 'a')).toBe('a/**/cache/');
    expect(rebasePattern('/local.txt', 'a')).toBe('a/local.txt');
    expect(rebasePattern('docs/**/*.tmp', 'a')).toBe('a/docs/**/*.tmp');
  });

  it('escapes pattern characters in the directory name', () => {
    expect(rebasePattern('*.md', '!x/[y] z')).toBe('\\!x/\\[y\\]\\ z/**/*.md');
  });
});

describe('listing honours gitignore like git', () => {
  it.each(['walker', 'auto'] as const)(
    'lists exactly what `git ls-files -co --exclude-standard` lists (%s)',
    async (listing) => {
      const root = await temp.make('git-');
      git(root, ['init', '-q']);
      await writeTree(root, GIT_FIXTURE);
      let expected = git(root, ['ls-files', '-co', '--exclude-standard', '-z'])
        .split('\0')
        .filter((p) => p !== '')
        .sort();
      // Names with control characters are never listed: skipped as unsafe_name, like git's but escaped.
      const unsafe = expected.filter((p) => p.includes('\n'));
      expect(unsafe.length).toBeGreaterThan(0);
      expected = expected.filter((p) => !unsafe.includes(p));

      const result = await (await openRepository(root, { listing })).list();
      const actual = result.paths;

      expect(result.source.kind).toBe(listing === 'auto' ? 'git' : 'walker');
      expect(actual).toEqual(expected);
      // Sanity: the fixture really exercises the rules.
      expect(actual).toContain('a/out/f.js');
      expect(actual).toContain('!bang/keep.md');
      expect(actual).toContain('dir/x.md');
      expect(actual).not.toContain('a/b/one.txt');
      expect(result.skipped.find((s) => s.reason === 'vcs_dir')).toEqual({
        reason: 'vcs_dir',
        count: 1,
        examples: ['.git/'],
      });
      expect(result.skipped.find((s) => s.reason === 'unsafe_name')?.count).toBe(unsafe.length);
    },
  );

  it('counts an ignored directory once, with a trailing slash, without descending', async () => {
    const root = await temp.make();
    await writeTree(root, {
      '.gitignore': 'build/\n',
      'build/a.js': 'x',
      'build/b/c.js': 'x',
      'src/build/d.js': 'x',
      'keep.js': 'x',
    });
    const listing = await (await openRepository(root)).list();
    expect(listing.paths).toEqual(['.gitignore', 'keep.js']);
    expect(listing.skipped).toEqual([{ reason: 'ignored', count: 2, examples: ['build/', 'src/build/'] }]);
  });

  it('honours .ignore files at every level: they exclude more, and never re-include what git excludes', async () => {
    const root = await temp.make();
    await writeTree(root, {
      '.ignore': 'generated/\n',
      '.gitignore': '*.tmp\n',
      'generated/x.ts': 'x',
      'lib/.ignore': '*.snap\n!keep.tmp\n',
      'lib/a.snap': 'x',
      'lib/keep.tmp': 'x',
      'lib/drop.tmp': 'x',
      'lib/code.ts': 'x',
      'a.snap': 'kept: the .ignore is in lib/',
    });
    const listing = await (await openRepository(root)).list();
    expect(listing.paths).toEqual(['.gitignore', '.ignore', 'a.snap', 'lib/.ignore', 'lib/code.ts']);
    expect(listing.skipped).toEqual([
      { reason: 'ignored', count: 4, examples: ['generated/', 'lib/a.snap', 'lib/drop.tmp', 'lib/keep.tmp'] },
    ]);
  });

  it('caps skipped examples at five, sorted, while counting all', async () => {
    const root = await temp.make();
    const files: Record<string, string> = { '.gitignore': '*.log\n' };
    for (const name of ['h', 'c', 'a', 'g', 'e', 'b', 'f', 'd']) files[`${name}.log`] = 'x';
    await writeTree(root, files);
    const listing = await (await openRepository(root)).list();
    expect(listing.skipped).toEqual([
      { reason: 'ignored', count: 8, examples: ['a.log', 'b.log', 'c.log', 'd.log', 'e.log'] },
    ]);
  });
});

describe('RuleLayer name pre-test', () => {
  const patterns = [
    '*.log',
    '!keep.log',
    'build/',
    '/root-only.txt',
    'docs/**/*.tmp',
    '**/out/',
    'node_modules',
    'trailing-space.txt   ',
    'escaped\\ space\\ ',
    'a?c.md',
    '[abc].txt',
    '\\!bang.md',
    '\\#hash.md',
    'x/**',
    'file.with+plus(1).js',
    'sub/dir/exact.ts',
    '*',
    '!*.ts',
  ];
  const names = [
    'app.log',
    'keep.log',
    'build',
    'root-only.txt',
    'x.tmp',
    'out',
    'node_modules',
    'trailing-space.txt',
    'escaped space ',
    'abc.md',
    'a.txt',
    'd.txt',
    '!bang.md',
    '#hash.md',
    'file.with+plus(1).js',
    'exact.ts',
    'main.ts',
    'plain',
  ];
  const dirs = ['', 'docs', 'docs/deep', 'sub/dir', 'x', 'a/b'];

  it('answers exactly as the matcher alone, for every pattern subset tried', () => {
    // Each window of patterns (and the whole list) as one layer: the pre-test must never change an answer.
    const sets = [patterns, ...patterns.map((_, i) => patterns.slice(i, i + 3)), ...patterns.map((p) => [p])];
    for (const set of sets) {
      const layer = RuleLayer.EMPTY.with(set.map((pattern) => ({ pattern })));
      const plain = ignore({ ignorecase: false, allowRelativePaths: true }).add(set.map((pattern) => ({ pattern })));
      for (const dir of dirs) {
        for (const name of names) {
          const relative = dir === '' ? name : `${dir}/${name}`;
          // The walk only asks about entries below directories that are not ignored.
          if (dir !== '' && plain.ignores(`${dir}/`)) continue;
          for (const isDirectory of [false, true]) {
            expect(layer.ignores(relative, isDirectory), `${JSON.stringify(set)} ${relative} ${isDirectory}`).toBe(
              plain.ignores(isDirectory ? `${relative}/` : relative),
            );
          }
        }
      }
    }
  });
});

describe('a linked git work tree', () => {
  it('is listed although its .git is a file (no .git/info/exclude can exist there)', async () => {
    const root = await temp.make();
    await writeTree(root, { 'README.md': '# Linked\n', '.gitignore': 'build/\n', 'build/out.js': 'x\n' });
    const gitDir = await temp.make();
    await writeTree(gitDir, { HEAD: 'ref: refs/heads/main\n' });
    await writeTree(root, { '.git': `gitdir: ${gitDir}\n` });
    expect(readIgnoreFile(join(root, '.git', 'info', 'exclude'))).toBeUndefined();
    const repo = await openRepository(root, { listing: 'walker' });
    expect((await repo.list()).paths).toEqual(['.gitignore', 'README.md']);
  });
});
