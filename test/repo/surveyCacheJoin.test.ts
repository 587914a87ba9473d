/**
 * A survey under way is joined by a call that wants the same one (repo/surveyCache.ts) — the server's warm-up makes
 * the served root's survey and a call arriving meanwhile waits for it instead of making it again — but only when the
 * tree was fully watched since the survey began, so a change made before the joining call is never missed.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RepoProgress, RepoSurvey, SurveyCache } from '../../src/repo/index.js';
import { createSurveyCache, openRepository } from '../../src/repo/index.js';
import { TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
const caches: SurveyCache[] = [];
afterEach(() => caches.splice(0).forEach((cache) => cache.close()));
afterAll(() => temp.cleanup());

const files = {
  'README.md': '# demo\n',
  'package.json': '{"name":"demo"}\n',
  'src/index.ts': 'export const a = 1;\n',
  'docs/guide.md': '# guide\n',
};

async function setUp(): Promise<{ root: string; cache: SurveyCache }> {
  const root = await temp.make('join-');
  await writeTree(root, files);
  const cache = createSurveyCache();
  caches.push(cache);
  return { root, cache };
}

interface Started {
  result: Promise<RepoSurvey>;
  /** Settles when the survey has begun listing (it is under way). */
  listing: Promise<void>;
  /** Whether this survey listed the tree itself (false: served from the cache or joined). */
  listed(): boolean;
}

/** Starts one survey through the cache, as a call would. */
async function start(root: string, cache: SurveyCache, whenWatched = false): Promise<Started> {
  const events: RepoProgress[] = [];
  let began = (): void => {};
  const listing = new Promise<void>((resolve) => (began = resolve));
  const repo = await openRepository(root, {
    cache,
    onProgress: (event) => {
      events.push(event);
      began();
    },
  });
  const result = repo.survey(undefined, { whenWatched });
  return { result, listing, listed: () => events.some((event) => event.phase === 'listed') };
}

const fresh = async (root: string): Promise<RepoSurvey> => (await openRepository(root)).survey();

/**
 * A survey listing on a watched tree: the first survey of a root arms its watch; the next one, once the watch is
 * complete, runs on a watched tree (held at its listing until the test goes on).
 */
async function surveyUnderWay() {
  const { root, cache } = await setUp();
  await (
    await start(root, cache)
  ).result;
  const running = await start(root, cache, true);
  await running.listing;
  return { root, cache, running };
}

describe('a survey under way', () => {
  it('is joined by a call asking for the same survey on a watched, unchanged tree', async () => {
    const { root, cache, running } = await surveyUnderWay();
    const joining = await start(root, cache);
    const [made, joined] = await Promise.all([running.result, joining.result]);
    expect(running.listed()).toBe(true);
    expect(joining.listed()).toBe(false);
    expect(joined).toEqual(made);
    expect(joined).toEqual(await fresh(root));
  });

  it('is not joined when the tree changed after it began: the call sees the change', async () => {
    const { root, cache, running } = await surveyUnderWay();
    await writeFile(path.join(root, 'ADDED.md'), '# added while the survey ran\n');
    const joining = await start(root, cache);
    const after = await joining.result;
    await running.result;
    expect(joining.listed()).toBe(true);
    expect(after.candidates.map((candidate) => candidate.path)).toContain('ADDED.md');
    expect(after).toEqual(await fresh(root));
  });

  it('is not joined when it began before the tree was watched (a root surveyed for the first time)', async () => {
    const { root, cache } = await setUp();
    const first = await start(root, cache);
    await first.listing;
    const second = await start(root, cache);
    await Promise.all([first.result, second.result]);
    expect(first.listed()).toBe(true);
    expect(second.listed()).toBe(true);
  });
});
