/**
 * paths.ts: `realpathUnder` resolves a path in blocking calls only when none of its segments is a symbolic link, so
 * a link (which may lead to a stalled mount) is never walked on the event loop.
 */
import { mkdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { realpathUnder, resolveSubPath } from '../../src/repo/paths.js';
import { TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/**
 * Whether `promise` settles within a chain of microtasks. A result from libuv's thread pool arrives in a later turn
 * of the event loop, never within one, so a path resolved through the pool is still pending here.
 */
async function settlesWithinMicrotasks(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let tick = 0; tick < 20; tick++) await Promise.resolve();
  return settled;
}

async function treeWithLinks(): Promise<{ root: string; outside: string }> {
  const root = await realpath(await temp.make());
  const outside = await realpath(await temp.make('outside-'));
  await writeTree(root, { 'src/a.ts': 'export {};\n', 'docs/guide.md': '# g\n' });
  await writeTree(outside, { 'x.md': '# x\n' });
  await symlink(join(root, 'src'), join(root, 'linked-src'));
  await symlink(outside, join(root, 'away'));
  await symlink(join(root, 'docs/guide.md'), join(root, 'guide-link.md'));
  return { root, outside };
}

describe('realpathUnder', () => {
  it('resolves a path of real directories at once, in blocking calls', async () => {
    const { root } = await treeWithLinks();
    const resolving = realpathUnder(root, 'src/a.ts');
    expect(await settlesWithinMicrotasks(resolving)).toBe(true);
    expect(await resolving).toBe(join(root, 'src/a.ts'));
  });

  it('resolves a path through a linked directory or file off the event loop, to the same answer', async () => {
    const { root, outside } = await treeWithLinks();
    for (const [relative, expected] of [
      ['linked-src/a.ts', join(root, 'src/a.ts')],
      ['away/x.md', join(outside, 'x.md')],
      ['guide-link.md', join(root, 'docs/guide.md')],
    ] as const) {
      const resolving = realpathUnder(root, relative);
      expect(await settlesWithinMicrotasks(resolving), relative).toBe(false);
      expect(await resolving).toBe(expected);
    }
  });

  it('fails for a path that does not exist, either way', async () => {
    const { root } = await treeWithLinks();
    await expect(realpathUnder(root, 'src/missing.ts')).rejects.toThrow();
    await expect(realpathUnder(root, 'linked-src/missing.ts')).rejects.toThrow();
  });
});

describe('resolveSubPath', () => {
  it('follows a link inside the root and refuses one that leads outside it', async () => {
    const { root } = await treeWithLinks();
    await mkdir(join(root, 'empty'));
    expect(await resolveSubPath(root, 'linked-src')).toBe('src');
    expect(await resolveSubPath(root, 'empty')).toBe('empty');
    await expect(resolveSubPath(root, 'away')).rejects.toMatchObject({ code: 'path_outside_root' });
  });
});
