/**
 * The served root's survey made ahead of the first call (flows/summarizeRepo/run.ts, used by the server's warm-up):
 * it fills the process's survey cache, and a call after it still sees the tree as it is.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../../src/app/localSummarize.js';
import { warmServedSurvey } from '../../../src/flows/summarizeRepo/run.js';
import { silentLogger } from '../../../src/logger.js';
import { openRepository, sharedSurveyCache } from '../../../src/repo/index.js';
import { makeSampleRepo, makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

describe('warmServedSurvey', () => {
  it('does nothing once its signal is aborted', async () => {
    const roots = sharedSurveyCache().roots;
    const aborted = new AbortController();
    aborted.abort();
    await warmServedSurvey({ root: repo.root }, aborted.signal);
    expect(sharedSurveyCache().roots).toBe(roots);
  });

  it('fills the survey cache for the served root, and a later call still sees a file added after it', async () => {
    const roots = sharedSurveyCache().roots;
    await warmServedSurvey({ root: repo.root }, new AbortController().signal);
    expect(sharedSurveyCache().roots).toBe(roots + 1);
    await writeFile(path.join(repo.root, 'ADDED.md'), '# added after the warm-up\n');
    const fresh = await (await openRepository(repo.root)).survey();
    const result = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    expect(result.isError).not.toBe(true);
    const structured = result.structuredContent as { candidates: { total: number } };
    expect(structured.candidates.total).toBe(fresh.total);
    expect(fresh.candidates.map((candidate) => candidate.path)).toContain('ADDED.md');
  });

  it("leaves a small tree's survey kept: the next call lists nothing", async () => {
    const tree = await makeTree({ 'README.md': '# kept\n', 'src/main.ts': 'export {};\n' }, 'mmi-warm-kept-');
    try {
      expect(await warmServedSurvey({ root: tree.root }, new AbortController().signal)).toBe(true);
      const phases: string[] = [];
      const repo = await openRepository(tree.root, {
        cache: sharedSurveyCache(),
        onProgress: (event) => phases.push(event.phase),
      });
      const kept = await repo.survey();
      expect(phases).not.toContain('listed');
      expect(kept).toEqual(await (await openRepository(tree.root)).survey());
    } finally {
      await tree.cleanup();
    }
  });
});
