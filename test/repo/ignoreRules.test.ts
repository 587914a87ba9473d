import { afterAll, describe, expect, it } from 'vitest';
import { rebasePattern } from '../../src/repo/ignoreRules.js';
import { openRepository } from '../../src/repo/index.js';
import { git, TempDirs, writeTree } from './fixture.js';

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

/** A fixture exercising every gitignore feature the reader honours; it holds no binary or large file. */
const GIT_FIXTURE: Record<string, string> = {
  '.gitignore': [
    '# comment',
    '',
    '*.log',
    '!keep.log',
    'build/',
    '/root-only.txt',
    'docs/**/*.tmp',
    '**/out/',
    'node_modules',
    'trailing-space.txt   ',
  ].join('\n'),
  '.git/info/exclude': 'secret.env\n',
  'README.md': '# fixture\n',
  'app.log': 'log\n',
  'keep.log': 'kept\n',
  'sub/keep.log': 'kept\n',
  'sub/other.log': 'log\n',
  'build/out.js': 'x\n',
  'src/build/gen.js': 'x\n',
  'src/build.txt': 'not a directory\n',
  'src/main.ts': 'export {};\n',
  'root-only.txt': 'x\n',
  'a/root-only.txt': 'anchored at the root only\n',
  'docs/x.tmp': 'x\n',
  'docs/deep/er/y.tmp': 'x\n',
  'docs/z.md': 'doc\n',
  'other/q.tmp': 'kept\n',
  'node_modules/pkg/index.js': 'x\n',
  'a/node_modules/x.js': 'x\n',
  'trailing-space.txt': 'x\n',
  'secret.env': 'x\n',
  'a/secret.env': 'x\n',
  'out/top.js': 'x\n',
  'a/.gitignore': ['!important.log', '/local.txt', 'cache/', '!out/'].join('\r\n'),
  'a/important.log': 'kept by a nested negation\n',
  'a/local.txt': 'x\n',
  'a/sub/local.txt': 'kept: /local.txt is anchored to a/\n',
  'a/cache/c.js': 'x\n',
  'a/b/cache/d.js': 'x\n',
  'a/out/f.js': 'kept: a/.gitignore re-includes out/\n',
  'a/b/.gitignore': '*.txt\n!keep.txt\n',
  'a/b/one.txt': 'x\n',
  'a/b/keep.txt': 'kept\n',
  'a/b/code.js': 'kept\n',
  'a/build': 'a file: directory-only patterns do not match it\n',
  'dir with space/f.md': 'kept\n',
  '[x]/.gitignore': 'y.txt\n',
  '[x]/y.txt': 'x\n',
  '[x]/z.txt': 'kept\n',
  '!bang/.gitignore': '*.md\n!keep.md\n',
  '!bang/drop.md': 'x\n',
  '!bang/keep.md': 'kept\n',
  '!bang/deeper/drop.md': 'x\n',
  'nl\ndir/.gitignore': '*.md\n',
  'nl\ndir/a.md': 'x\n',
  'nl\ndir/b.txt': 'kept\n',
  'dir/x.md': 'kept: a pattern from nl\\ndir/ must not leak out\n',
};

describe('listing honours gitignore like git', () => {
  it('lists exactly what `git ls-files -co --exclude-standard` lists', async () => {
    const root = await temp.make('git-');
    git(root, ['init', '-q']);
    await writeTree(root, GIT_FIXTURE);
    const expected = git(root, ['ls-files', '-co', '--exclude-standard', '-z'])
      .split('\0')
      .filter((p) => p !== '')
      .sort();

    const listing = await (await openRepository(root)).list();
    const actual = listing.files.map((f) => f.path);

    expect(actual).toEqual(expected);
    // Sanity: the fixture really exercises the rules.
    expect(actual).toContain('a/out/f.js');
    expect(actual).toContain('!bang/keep.md');
    expect(actual).toContain('dir/x.md');
    expect(actual).not.toContain('a/b/one.txt');
    expect(listing.skipped.find((s) => s.reason === 'vcs_dir')).toEqual({
      reason: 'vcs_dir',
      count: 1,
      examples: ['.git/'],
    });
  });

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
    expect(listing.files.map((f) => f.path)).toEqual(['.gitignore', 'keep.js']);
    expect(listing.skipped).toEqual([{ reason: 'ignored', count: 2, examples: ['build/', 'src/build/'] }]);
  });

  it('honours .ignore files at every level, after .gitignore', async () => {
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
    expect(listing.files.map((f) => f.path)).toEqual([
      '.gitignore',
      '.ignore',
      'a.snap',
      'lib/.ignore',
      'lib/code.ts',
      'lib/keep.tmp',
    ]);
    expect(listing.skipped).toEqual([
      { reason: 'ignored', count: 3, examples: ['generated/', 'lib/a.snap', 'lib/drop.tmp'] },
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
