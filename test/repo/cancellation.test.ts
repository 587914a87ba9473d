import { PassThrough } from 'node:stream';

import { afterAll, describe, expect, it } from 'vitest';

import { createModelInputServer, serveModelInputStdio } from '../../src/app/modelInputServer.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { openRepository } from '../../src/repo/index.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { gitProcessesRunning, MAX_GIT_PROCESSES, runGit } from '../../src/repo/gitProcess.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { repoWithFakeGit, TempDirs, writeTree } from './fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A repository whose "git" hangs until it is killed, so a test can abort while git runs. */
function hangingGitRepo(): Promise<{ root: string; git: string }> {
  return repoWithFakeGit(temp, { files: { 'README.md': '# r\n', 'src/a.ts': 'a\n' } });
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('cancellation reaches the repository work', () => {
  it('an abort kills the running git child and the listing rejects, without falling back to the walker', async () => {
    const { root, git } = await hangingGitRepo();
    const controller = new AbortController();
    const repo = await openRepository(root, { gitCommand: git, signal: controller.signal });
    const listing = repo.list();
    await until(() => gitProcessesRunning() > 0);
    controller.abort();
    await expect(listing).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => gitProcessesRunning() === 0);
  });

  it('reads stop once aborted', async () => {
    const root = await temp.make();
    await writeTree(root, { 'a.md': 'a\n' });
    const controller = new AbortController();
    controller.abort();
    const repo = await openRepository(root, { listing: 'walker', signal: controller.signal });
    await expect(repo.read(['a.md'], { perFileBytes: 10, totalBytes: 10 })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(repo.list()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('bounds git children process-wide: 40 runs at once never exceed the pool', async () => {
    const { root, git } = await hangingGitRepo();
    const controller = new AbortController();
    const runs = Array.from({ length: 40 }, () =>
      runGit(['ls-files'], { command: git, cwd: root, timeoutMs: 20_000, maxBytes: 1024, signal: controller.signal }),
    );
    await until(() => gitProcessesRunning() === MAX_GIT_PROCESSES);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gitProcessesRunning()).toBe(MAX_GIT_PROCESSES);
    controller.abort();
    const results = await Promise.all(runs);
    expect(results.every((result) => !result.ok)).toBe(true);
    expect(gitProcessesRunning()).toBe(0);
  });

  it('an HTTP client that goes away aborts its summarize_repo call: git is killed', async () => {
    const { root, git } = await hangingGitRepo();
    const front = createTestFront({ root, repository: { gitCommand: git } });
    const controller = new AbortController();
    const request = mcpRequest(
      'http://localhost/mcp',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
      },
      {},
    );
    const pending = front.fetch(new Request(request, { signal: controller.signal })).catch(() => undefined);
    await until(() => gitProcessesRunning() > 0);
    controller.abort();
    await until(() => gitProcessesRunning() === 0);
    await pending;
    await front.close();
  });
});

describe('notifications/cancelled', () => {
  it('on stdio, cancelling a running summarize_repo call kills its git and answers nothing for it', async () => {
    const { root, git } = await hangingGitRepo();
    const server = createModelInputServer({
      root,
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: 'local:test',
      legacy: false,
      repository: { gitCommand: git },
    });
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const handle = serveModelInputStdio(server, { logger: silentLogger, input, output });
    const line = (message: Record<string, unknown>) => input.write(`${JSON.stringify(message)}\n`);
    line({
      jsonrpc: '2.0',
      id: 41,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
    });
    await until(() => gitProcessesRunning() > 0);
    line({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 41, reason: 'user', _meta: meta() },
    });
    await until(() => gitProcessesRunning() === 0);
    // The server goes on serving, and the cancelled request gets no answer (the spec: SHOULD NOT respond).
    line({ jsonrpc: '2.0', id: 42, method: 'tools/list', params: { _meta: meta() } });
    await until(() => written.includes('"id":42'));
    expect(written).not.toContain('"id":41');
    await handle.close();
  });
});
