/**
 * Explore results kept with the survey cache (repo.memo): a round that runs the logged calls again reads nothing
 * while the tree is unchanged, and sees a change as soon as the watch does.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createSurveyCache, openRepository, type SurveyCache } from '../../../src/repo/index.js';
import { createExplorer } from '../../../src/repo/explore/index.js';
import { makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';

const trees: FixtureRepo[] = [];
const caches: SurveyCache[] = [];
afterAll(async () => {
  caches.forEach((cache) => cache.close());
  await Promise.all(trees.map((tree) => tree.cleanup()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('repo.memo', () => {
  it('keeps a value while the tree is unchanged, and computes it anew after a change', async () => {
    const tree = await makeTree({ 'README.md': '# one\n', 'src/a.ts': 'export {};\n' });
    trees.push(tree);
    const cache = createSurveyCache();
    caches.push(cache);
    const repo = await openRepository(tree.root, { cache, listing: 'walker' });
    let computed = 0;
    const compute = async () => ++computed;
    let kept = false;
    for (let attempt = 0; attempt < 40 && !kept; attempt++) {
      await repo.survey(undefined, { candidateBytes: 0 }); // starts the watch
      const before = computed;
      await repo.memo('k', compute);
      await repo.memo('k', compute);
      kept = computed === before + 1 || computed === before;
      if (!kept) await sleep(25);
    }
    expect(kept).toBe(true);
    const stable = computed;
    expect(await repo.memo('k', compute)).toBe(stable);

    await writeFile(join(tree.root, 'README.md'), '# two\n');
    let changed = false;
    for (let attempt = 0; attempt < 40 && !changed; attempt++) {
      changed = (await repo.memo('k', compute)) !== stable;
      if (!changed) await sleep(25);
    }
    expect(changed).toBe(true);
  });

  it('an explorer on a cached repository shows the file as it is now', async () => {
    const tree = await makeTree({ 'README.md': '# before\n' });
    trees.push(tree);
    const cache = createSurveyCache();
    caches.push(cache);
    const read = async () => {
      const repo = await openRepository(tree.root, { cache, listing: 'walker' });
      await repo.survey(undefined, { candidateBytes: 0 });
      return (
        await createExplorer(repo).run({ tool: 'read_file', path: 'README.md', startLine: 1, maxLines: 10 }, 4096)
      ).text;
    };
    expect(await read()).toContain('# before');
    await sleep(100);
    expect(await read()).toContain('# before');
    await writeFile(join(tree.root, 'README.md'), '# after\n');
    let text = '';
    for (let attempt = 0; attempt < 40 && !text.includes('# after'); attempt++) {
      text = await read();
      if (!text.includes('# after')) await sleep(25);
    }
    expect(text).toContain('# after');
  });
});
