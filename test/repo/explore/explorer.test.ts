/** The explore tools over a real temporary tree: what they show, and every hostile input refused. */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openRepository } from '../../../src/repo/index.js';
import { createExplorer, type Explorer } from '../../../src/repo/explore/index.js';
import { makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
let repo: FixtureRepo;
let outside: FixtureRepo;
let explorer: Explorer;

beforeAll(async () => {
  outside = await makeTree({ 'passwd.txt': 'root:x:0:0\n', 'dir/inner.txt': 'outside\n' }, 'mmi-outside-');
  const lines = Array.from({ length: 50 }, (_, n) => `line ${n + 1}${n === 29 ? ' needle here' : ''}`).join('\n');
  repo = await makeTree({
    'README.md': '# Demo\n\nDemo does things.\n',
    'package.json': '{"name":"demo","main":"src/index.ts"}\n',
    'src/index.ts': `${lines}\n`,
    'src/util/helpers.ts': 'export const needle = 1;\n',
    'docs/wide.md': `${'é'.repeat(3000)}\n`,
    '.env': 'API_KEY=sk-live-never-shown\n',
    id_rsa: KEY,
    '.gitignore': 'build/\n',
    'build/out.js': 'needle in ignored\n',
  });
  await symlink(join(outside.root, 'passwd.txt'), join(repo.root, 'escape.txt'));
  await symlink(join(outside.root, 'dir'), join(repo.root, 'escape-dir'));
  await mkdir(join(repo.root, 'big'));
  await writeFile(join(repo.root, 'big', 'huge.txt'), 'x'.repeat(10 * 1024 * 1024));
  explorer = createExplorer(await openRepository(repo.root, { listing: 'walker' }));
});
afterAll(async () => {
  await repo.cleanup();
  await outside.cleanup();
});

describe('list_directory', () => {
  it('lists the root: directories with their file counts, files, never secret or ignored entries', async () => {
    const result = await explorer.run({ tool: 'list_directory', path: '' }, 4096);
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('src/  (2 files)');
    expect(result.text).toContain('README.md');
    expect(result.text).not.toContain('.env');
    expect(result.text).not.toContain('id_rsa');
    expect(result.text).not.toContain('build');
    expect(result.bytes).toBe(Buffer.byteLength(result.text));
  });

  it('refuses a path that leaves the root, an absolute path and a symlinked directory out of it', async () => {
    expect((await explorer.run({ tool: 'list_directory', path: '../../etc' }, 4096)).error).toBe('outside_root');
    expect((await explorer.run({ tool: 'list_directory', path: '/etc' }, 4096)).error).toBe('outside_root');
    const link = await explorer.run({ tool: 'list_directory', path: 'escape-dir' }, 4096);
    expect(link.error).toBe('symlink_outside_root');
    expect(link.text).not.toContain('inner.txt');
  });
});

describe('read_file', () => {
  it('shows a line window as a FILE block, cut to the byte cap', async () => {
    const result = await explorer.run({ tool: 'read_file', path: 'src/index.ts', startLine: 10, maxLines: 5 }, 8192);
    expect(result.error).toBeUndefined();
    expect(result.text).toMatch(/^<<<FILE path="src\/index.ts" bytes=\d+ truncated=true lines=10-14 of 50>>>/);
    expect(result.text).toContain('line 10\n');
    expect(result.text).toContain('line 14\n');
    expect(result.text).not.toContain('line 15');
    expect(result.file?.path).toBe('src/index.ts');
    const capped = await explorer.run({ tool: 'read_file', path: 'src/index.ts', startLine: 1, maxLines: 400 }, 200);
    expect(capped.bytes).toBeLessThanOrEqual(200);
    expect(capped.text).toContain('more lines not shown');
  });

  it.each([
    ['../../etc/passwd', 'outside_root'],
    ['/etc/passwd', 'outside_root'],
    ['escape.txt', 'symlink_outside_root'],
    ['.env', 'secret_file'],
    ['id_rsa', 'secret_file'],
    ['big/huge.txt', 'too_large'],
    ['build/out.js', 'ignored'],
    ['src', 'not_a_file'],
    ['nope.md', 'not_found'],
  ])('refuses %s (%s) and shows nothing of it', async (path, code) => {
    const result = await explorer.run({ tool: 'read_file', path, startLine: 1, maxLines: 400 }, 8192);
    expect(result.error).toBe(code);
    expect(result.file).toBeUndefined();
    expect(result.text).not.toMatch(/root:x|sk-live|OPENSSH|xxxxxxxx|needle in ignored/);
    expect(result.bytes).toBeLessThan(300);
  });
});

describe('search', () => {
  it('finds fixed strings in listed text files and in path names, never in ignored or secret files', async () => {
    const result = await explorer.run({ tool: 'search', pattern: 'needle', regex: false, path: '' }, 4096);
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('src/index.ts:30: line 30 needle here');
    expect(result.text).toContain('src/util/helpers.ts:1: export const needle = 1;');
    expect(result.text).not.toContain('build/out.js');
    const secret = await explorer.run({ tool: 'search', pattern: 'sk-live', regex: false, path: '' }, 4096);
    expect(secret.text).toContain('0 matching lines');
  });

  it('runs regular expressions in linear time (RE2) and refuses invalid ones', async () => {
    const result = await explorer.run({ tool: 'search', pattern: '^export\\s+const', regex: true, path: 'src' }, 4096);
    expect(result.text).toContain('src/util/helpers.ts:1:');
    expect(result.text).not.toContain('src/index.ts:');
    // A pattern that backtracks catastrophically in a backtracking engine answers at once here.
    const evil = await explorer.run({ tool: 'search', pattern: '(a+)+$', regex: true, path: '' }, 4096);
    expect(evil.error).toBeUndefined();
    const bad = await explorer.run({ tool: 'search', pattern: '(unclosed', regex: true, path: '' }, 4096);
    expect(bad.error).toBe('bad_pattern');
  });

  it('refuses a scope outside the root', async () => {
    const result = await explorer.run({ tool: 'search', pattern: 'x', regex: false, path: '../..' }, 4096);
    expect(result.error).toBe('outside_root');
  });
});

describe('budgets', () => {
  it('cuts a result to its byte cap on a character boundary, whatever the characters', async () => {
    for (const cap of [150, 151, 152, 153]) {
      const result = await explorer.run({ tool: 'list_directory', path: '' }, cap);
      expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(cap);
      const wide = await explorer.run({ tool: 'search', pattern: 'éé', regex: false, path: 'docs' }, cap + 200);
      expect(wide.bytes).toBeLessThanOrEqual(cap + 200);
      expect(wide.text).not.toContain('\uFFFD');
    }
  });

  it('answers budget_spent when the caller has no bytes left', async () => {
    const result = await explorer.run({ tool: 'list_directory', path: '' }, 10);
    expect(result.error).toBe('budget_spent');
  });
});
