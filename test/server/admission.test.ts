import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { gitProcessesRunning } from '../../src/repo/gitProcess.js';
import { createAdmission, SERVER_BUSY_CODE, ServerBusyError } from '../../src/server/admission.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { TempDirs, writeTree } from '../repo/fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('admission', () => {
  it('runs at most maxConcurrent, queues a bounded number, and bounds each principal', async () => {
    const admission = createAdmission({ maxConcurrent: 2, maxPerPrincipal: 3, maxQueued: 1 });
    const first = await admission.acquire('alice');
    await admission.acquire('alice');
    const waiting = admission.acquire('alice');
    expect(admission.running).toBe(2);
    expect(admission.queued).toBe(1);
    // Alice holds three places: her fourth call is refused as hers (429).
    expect(admission.check('alice')).toMatchObject({ reason: 'principal_busy', status: 429 });
    await expect(admission.acquire('alice')).rejects.toBeInstanceOf(ServerBusyError);
    // Bob is under his share but the queue is full: the server is busy (503).
    expect(admission.check('bob')).toMatchObject({ reason: 'busy', status: 503 });
    await expect(admission.acquire('bob')).rejects.toMatchObject({ code: SERVER_BUSY_CODE });
    first();
    first(); // releasing twice frees one place only
    await waiting;
    expect(admission.running).toBe(2);
    expect(admission.queued).toBe(0);
  });

  it('a waiting call whose client goes away leaves the queue', async () => {
    const admission = createAdmission({ maxConcurrent: 1, maxQueued: 5 });
    const running = await admission.acquire('a');
    const controller = new AbortController();
    const waiting = admission.acquire('b', controller.signal);
    expect(admission.queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(admission.queued).toBe(0);
    expect(admission.check('b')).toBeUndefined();
    running();
    expect(admission.running).toBe(0);
  });
});

describe('admission over HTTP', () => {
  it('answers a tool call beyond the limits 429 with Retry-After while discover and tools/list stay served', async () => {
    const root = await temp.make();
    await writeTree(root, { 'README.md': '# r\n' });
    await mkdir(join(root, '.git'));
    const bin = await temp.make('bin-');
    await writeTree(bin, { git: '#!/bin/sh\nexec sleep 30\n' });
    await chmod(join(bin, 'git'), 0o755);
    const front = createTestFront({
      root,
      repository: { gitCommand: join(bin, 'git') },
      admission: { maxConcurrent: 1, maxPerPrincipal: 1, maxQueued: 0 },
    });
    const call = (id: number, signal?: AbortSignal) => {
      const request = mcpRequest('http://localhost/mcp', {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
      });
      return front.fetch(signal === undefined ? request : new Request(request, { signal }));
    };
    const controller = new AbortController();
    const first = call(1, controller.signal).catch(() => undefined);
    for (let attempt = 0; attempt < 500 && gitProcessesRunning() === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(gitProcessesRunning()).toBe(1);

    const refused = await call(2);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(SERVER_BUSY_CODE);

    for (const method of ['server/discover', 'tools/list']) {
      const cheap = await front.fetch(
        mcpRequest('http://localhost/mcp', { jsonrpc: '2.0', id: 3, method, params: { _meta: meta() } }),
      );
      expect(cheap.status).toBe(200);
    }
    controller.abort();
    await first;
    for (let attempt = 0; attempt < 500 && gitProcessesRunning() > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(gitProcessesRunning()).toBe(0);
    await front.close();
  });
});
