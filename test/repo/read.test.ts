import { open, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePrefix } from '../../src/repo/decode.js';
import { countTokens, cutToTokens, formatTruncationMarker, openRepository } from '../../src/repo/index.js';
import { TempDirs, tryMkfifo, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const bom16le = Buffer.from([0xff, 0xfe]);
const bom16be = Buffer.from([0xfe, 0xff]);
const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
const wide = { perFileBytes: 1_000_000, totalBytes: 10_000_000 };

describe('formatTruncationMarker', () => {
  it('is the documented visible marker', () => {
    expect(formatTruncationMarker(10, 42)).toBe('\n[… truncated: showing 10 of 42 bytes]');
  });
});

describe('read: decoding', () => {
  it('decodes UTF-8 (BOM stripped), UTF-16LE/BE with a BOM, and flags invalid UTF-8 as replaced', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'plain.md': 'héllo\n',
      'bom.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('with bom')]),
      'le.txt': Buffer.concat([bom16le, Buffer.from('wide ✓ 😀', 'utf16le')]),
      'be.txt': Buffer.concat([bom16be, utf16be('big end')]),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'empty.txt': '',
    });
    const repo = await openRepository(root);
    // UTF-16 files hold NUL bytes but are text: the listing keeps them.
    expect((await repo.list()).paths).toContain('le.txt');
    const result = await repo.read(['plain.md', 'bom.md', 'le.txt', 'be.txt', 'latin1.txt', 'empty.txt'], wide);
    expect(result.skipped).toEqual([]);
    expect(result.files.map((f) => [f.path, f.content, f.encoding, f.truncated])).toEqual([
      ['plain.md', 'héllo\n', 'utf8', false],
      ['bom.md', 'with bom', 'utf8', false],
      ['le.txt', 'wide ✓ 😀', 'utf16le', false],
      ['be.txt', 'big end', 'utf16be', false],
      ['latin1.txt', 'caf\uFFFD\n', 'replaced', false],
      ['empty.txt', '', 'utf8', false],
    ]);
    expect(result.files.map((f) => f.bytesShown)).toEqual([7, 11, 2 + 18, 2 + 14, 5, 0]);
    expect(result.totalBytesShown).toBe(7 + 11 + 20 + 16 + 5);
  });

  it('cuts at character boundaries', () => {
    const euro = Buffer.from('a€b'); // 61 e2 82 ac 62
    expect(decodePrefix(euro, 3, euro.length)).toEqual({ text: 'a', bytesUsed: 1, encoding: 'utf8' });
    expect(decodePrefix(euro, 4, euro.length)).toEqual({ text: 'a€', bytesUsed: 4, encoding: 'utf8' });
    const pair = Buffer.concat([bom16le, Buffer.from('a😀', 'utf16le')]); // 2 + 2 + 4 bytes
    expect(decodePrefix(pair, 7, pair.length)).toEqual({ text: 'a', bytesUsed: 4, encoding: 'utf16le' });
    expect(decodePrefix(pair, 5, pair.length)).toEqual({ text: 'a', bytesUsed: 4, encoding: 'utf16le' });
    expect(decodePrefix(pair, 1, pair.length)).toEqual({ text: '', bytesUsed: 0, encoding: 'utf16le' });
    const odd = Buffer.concat([bom16be, utf16be('ab'), Buffer.from([0x00])]);
    expect(decodePrefix(odd, 100, odd.length)).toEqual({ text: 'ab\uFFFD', bytesUsed: 7, encoding: 'replaced' });
  });
});

describe('read: budgets', () => {
  it('shows at most perFileBytes of a file and appends the marker', async () => {
    const root = await temp.make();
    await writeTree(root, { 'a.txt': 'ééééé' }); // 10 bytes
    const repo = await openRepository(root);
    const [file] = (await repo.read(['a.txt'], { perFileBytes: 5, totalBytes: 100 })).files;
    expect(file).toEqual({
      path: 'a.txt',
      size: 10,
      content: `éé${formatTruncationMarker(4, 10)}`,
      truncated: true,
      bytesShown: 4,
      tokens: expect.any(Number),
      encoding: 'utf8',
      // The text past the cut, never shown: the redactor decides on a secret across the cut with it.
      after: 'ééé',
    });
  });

  it('spends the total budget in order; later files stay listed with no content', async () => {
    const root = await temp.make();
    await writeTree(root, { 'a.txt': 'aaaaaaaaaa', 'b.txt': 'bbbbbbbbbb', 'c.txt': 'cccccccccc', 'd.txt': '' });
    const repo = await openRepository(root);
    const result = await repo.read(['a.txt', 'b.txt', 'c.txt', 'd.txt'], { perFileBytes: 100, totalBytes: 15 });
    expect(result.files).toEqual([
      {
        path: 'a.txt',
        size: 10,
        content: 'aaaaaaaaaa',
        truncated: false,
        bytesShown: 10,
        tokens: expect.any(Number),
        encoding: 'utf8',
      },
      {
        path: 'b.txt',
        size: 10,
        content: `bbbbb${formatTruncationMarker(5, 10)}`,
        truncated: true,
        bytesShown: 5,
        tokens: expect.any(Number),
        encoding: 'utf8',
        after: 'bbbbb',
      },
      {
        path: 'c.txt',
        size: 10,
        content: formatTruncationMarker(0, 10),
        truncated: true,
        bytesShown: 0,
        tokens: expect.any(Number),
        after: 'cccccccccc',
        encoding: 'utf8',
      },
      { path: 'd.txt', size: 0, content: '', truncated: false, bytesShown: 0, tokens: 0, encoding: 'utf8' },
    ]);
    expect(result.totalBytesShown).toBe(15);
  });

  it('reads only the bytes it shows', async () => {
    const root = await temp.make();
    const handle = await open(path.join(root, 'huge.txt'), 'w');
    await handle.write('start of a huge sparse file');
    await handle.truncate(1024 ** 3); // 1 GiB, sparse
    await handle.close();
    const result = await (await openRepository(root)).read(['huge.txt'], { perFileBytes: 14, totalBytes: 100 });
    expect(result.files[0]?.content).toBe(`start of a hug${formatTruncationMarker(14, 1024 ** 3)}`);
  });
});

describe('read: confinement at read time', () => {
  it('skips paths that now escape the root, vanished, or became special files', async () => {
    const outside = await temp.make('outside-');
    const root = await temp.make();
    await writeTree(outside, { 'secret.txt': 'TOP-SECRET-CONTENT' });
    await writeTree(root, { 'a.txt': 'a', 'swapped.txt': 'was here', 'gone.txt': 'x' });
    const repo = await openRepository(root);
    expect((await repo.list()).paths).toEqual(['a.txt', 'gone.txt', 'swapped.txt']);

    await rm(path.join(root, 'swapped.txt'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'swapped.txt'));
    await rm(path.join(root, 'gone.txt'));
    const fifo = tryMkfifo(path.join(root, 'pipe'));

    const paths = ['a.txt', 'swapped.txt', 'gone.txt', '../outside/secret.txt', 'a.txt', ...(fifo ? ['pipe'] : [])];
    const result = await repo.read(paths, wide);
    expect(result.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(result.skipped).toEqual([
      ...(fifo ? [{ reason: 'special_file', count: 1, examples: ['pipe'] }] : []),
      { reason: 'symlink_outside_root', count: 1, examples: ['swapped.txt'] },
      { reason: 'unreadable', count: 2, examples: ['../outside/secret.txt', 'gone.txt'] },
    ]);
    expect(JSON.stringify(result)).not.toContain('TOP-SECRET');
  });
});

describe('read: token budgets and estimates', () => {
  it('reports estimated tokens per file and in total', async () => {
    const root = await temp.make();
    await writeTree(root, { 'a.md': 'hello world\n', 'empty.md': '' });
    const result = await (await openRepository(root)).read(['a.md', 'empty.md'], wide);
    expect(result.files.map((f) => f.tokens)).toEqual([await countTokens('hello world\n'), 0]);
    expect(result.totalTokens).toBe(result.files[0]?.tokens);
  });

  it('cuts a token-dense file to perFileTokens on a character boundary, with exact byte counts', async () => {
    const root = await temp.make();
    const dense = '漢字かな交じり文。'.repeat(400); // about 11 KB of UTF-8, far more tokens than bytes / 4
    await writeTree(root, { 'cjk.txt': dense, 'wide16.txt': Buffer.concat([bom16le, Buffer.from(dense, 'utf16le')]) });
    const repo = await openRepository(root);
    const budget = { perFileBytes: 1_000_000, totalBytes: 1_000_000, perFileTokens: 200 };
    const result = await repo.read(['cjk.txt', 'wide16.txt'], budget);
    for (const file of result.files) {
      expect(file.truncated).toBe(true);
      expect(file.tokens).toBeLessThanOrEqual(200);
      expect(file.tokens).toBeGreaterThan(100);
      const shown = file.content.slice(0, file.content.indexOf('\n[… truncated'));
      expect(dense.startsWith(shown)).toBe(true);
      const bom = file.encoding === 'utf16le' ? 2 : 0;
      const bytes = file.encoding === 'utf16le' ? shown.length * 2 : Buffer.byteLength(shown);
      expect(file.bytesShown).toBe(bom + bytes);
      expect(file.content).toContain(formatTruncationMarker(file.bytesShown, file.size));
    }
  });

  it('spends totalTokens across files; later files keep only the marker', async () => {
    const root = await temp.make();
    const words = 'lorem ipsum dolor sit amet '.repeat(100);
    await writeTree(root, { 'a.txt': words, 'b.txt': words, 'c.txt': words });
    const budget = { perFileBytes: 1_000_000, totalBytes: 1_000_000, totalTokens: 700 };
    const result = await (await openRepository(root)).read(['a.txt', 'b.txt', 'c.txt'], budget);
    expect(result.files[0]?.truncated).toBe(false);
    expect(result.files[1]?.truncated).toBe(true);
    expect(result.files[2]?.bytesShown).toBe(0);
    expect(result.totalTokens).toBeLessThanOrEqual(700 + 16);
  });
});

describe('tokens', () => {
  it('cuts text to a token budget without splitting a surrogate pair', async () => {
    const text = '😀'.repeat(50) + ' plain words '.repeat(50);
    const cut = await cutToTokens(text, 20);
    expect(cut.tokens).toBeLessThanOrEqual(20);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(/[\uD800-\uDBFF]$/.test(cut.text)).toBe(false);
    expect(await cutToTokens('short', 20)).toEqual({ text: 'short', tokens: await countTokens('short') });
    expect((await cutToTokens(text, 0)).text).toBe('');
  });
});
