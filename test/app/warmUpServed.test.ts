/**
 * The warm-up on a served root (app/warmUp.ts): its own call runs on the served root once the root's survey is kept,
 * a tool call arriving during the warm-up (joining what it already began) answers as it would without one, and the
 * served tree is never changed nor a temporary tree left behind.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { serveModelInputStdio } from '../../src/app/modelInputServer.js';
import { warmUpCall, warmUpServer } from '../../src/app/warmUp.js';
import { silentLogger } from '../../src/logger.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { builtinServerStreams, requestLine as line, warmUpDirs } from '../helpers/stdioFront.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

describe("the warm-up's call on the served root", () => {
  it('answers, makes no temporary tree and changes nothing a later call sees', async () => {
    const before = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    const readme = await readFile(path.join(repo.root, 'README.md'), 'utf8');
    const dirs = await warmUpDirs();
    expect(await warmUpCall(new AbortController().signal, 10_000, { root: repo.root })).toBe('answered');
    expect(await warmUpDirs()).toEqual(dirs);
    expect(await readFile(path.join(repo.root, 'README.md'), 'utf8')).toBe(readme);
    const after = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    expect(after.content).toEqual(before.content);
  });
});

describe('a tool call arriving during the warm-up', () => {
  it('answers as without the warm-up, sees a change made before it, and the warm-up leaves nothing behind', async () => {
    const expected = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    const dirs = await warmUpDirs();
    const { server, input, output, written } = builtinServerStreams(repo.root);
    const arrived = new AbortController();
    let warming: Promise<void> | undefined;
    // As `serve --stdio` wires it (cli/serve.ts): the warm-up after the first answer, given up by a tool call.
    const handle = serveModelInputStdio(server, {
      logger: silentLogger,
      input,
      output,
      onFirstAnswer: () => (warming = warmUpServer(arrived.signal, { root: repo.root })),
      onRequest: (method) => method === 'tools/call' && arrived.abort(),
    });
    type Answer = {
      result?: { content?: unknown; isError?: boolean; structuredContent?: { candidates: { total: number } } };
    };
    const answerTo = async (id: number): Promise<Answer> => {
      for (let turn = 0; turn < 1000; turn++) {
        const found = written()
          .split('\n')
          .find((text) => text.includes(`"id":${id}`));
        if (found !== undefined) return JSON.parse(found) as Answer;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no answer to ${id}`);
    };
    try {
      input.write(line(1, 'server/discover'));
      await answerTo(1);
      // Sent at once: it arrives while the warm-up has only begun.
      input.write(line(2, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 3 } }));
      const first = await answerTo(2);
      expect(first.result?.isError).toBe(false);
      expect(first.result?.content).toEqual(expected.content);
      await warming;
      // Whatever the warm-up kept, a file added now is seen by the next call.
      await writeFile(path.join(repo.root, 'ADDED.md'), '# Added\n\nAdded after the warm-up.\n');
      const changed = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
      input.write(line(3, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 3 } }));
      const next = await answerTo(3);
      expect(next.result?.content).toEqual(changed.content);
      // The new file is counted (the built-in summary does not name every file).
      expect(next.result?.structuredContent?.candidates.total).toBe(
        (first.result?.structuredContent?.candidates.total ?? 0) + 1,
      );
      expect(await warmUpDirs()).toEqual(dirs);
    } finally {
      await handle.close();
    }
  });
});
