import { afterAll, describe, expect, it } from 'vitest';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { COMMAND_HELP, SERVE_USAGE } from '../../src/cli/usage.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { gitProcessesRunning } from '../../src/repo/gitProcess.js';
import {
  createAdmission,
  DEFAULT_MAX_CALLS_PER_PRINCIPAL,
  DEFAULT_MAX_CONCURRENT_CALLS,
  DEFAULT_MAX_QUEUED_CALLS,
  defaultMaxConcurrentCalls,
  LOCAL_CALLS_PER_CORE,
  SERVER_BUSY_CODE,
  ServerBusyError,
} from '../../src/server/admission.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { repoWithFakeGit, TempDirs } from '../repo/fixture.js';

const temp = new TempDirs();

/** A work tree whose `git` never answers (it sleeps), so a call holds its place until it is cancelled. */
function repositoryWithHangingGit(): Promise<{ root: string; git: string }> {
  return repoWithFakeGit(temp, { files: { 'README.md': '# r\n' } });
}
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

  it('admitted calls start one per turn of the event loop, whether admitted at once or after waiting', async () => {
    const admission = createAdmission({ maxConcurrent: 3, maxQueued: 3, maxPerPrincipal: 10 });
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const startedOn: number[] = [];
    const take = () => admission.acquire('a').then((release) => (startedOn.push(turn), release));
    const first = await Promise.all([take(), take(), take()]);
    expect(new Set(startedOn).size).toBe(3);
    // Three calls waiting, released together: still one start per turn.
    const waiting = [take(), take(), take()];
    expect(admission.queued).toBe(3);
    for (const release of first) release();
    await Promise.all(waiting);
    ticking = false;
    expect(new Set(startedOn).size).toBe(6);
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
    const { root, git } = await repositoryWithHangingGit();
    const front = createTestFront({
      root,
      repository: { gitCommand: git },
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

/** Polls (bounded) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000 && !done(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('admission defaults', () => {
  it('runs 2 calls per core (2 to 16) when every model is local, 16 when a provider may answer', () => {
    expect(defaultMaxConcurrentCalls(false, 1)).toBe(2);
    expect(defaultMaxConcurrentCalls(false, 2)).toBe(2 * LOCAL_CALLS_PER_CORE);
    expect(defaultMaxConcurrentCalls(false, 64)).toBe(DEFAULT_MAX_CONCURRENT_CALLS);
    expect(defaultMaxConcurrentCalls(true, 2)).toBe(DEFAULT_MAX_CONCURRENT_CALLS);
  });

  it('a server with the host model takes that many calls at once and queues the next; one with a provider 16', async () => {
    const places = async (model: string): Promise<number> => {
      const server = createModelInputServer({
        root: process.cwd(),
        models: parseModelSpec(model, { env: { OPENAI_API_KEY: 'sk-test' } }),
        keyRing: createEphemeralKeyRing(),
        logger: silentLogger,
        defaultPrincipal: ANONYMOUS,
        admission: { maxPerPrincipal: 100 },
      });
      let running = 0;
      while (server.admission.queued === 0 && running < 100) {
        void server.admission.acquire(`p${running}`);
        running++;
      }
      return running - 1;
    };
    expect(await places('host')).toBe(defaultMaxConcurrentCalls(false));
    expect(await places('host,builtin')).toBe(defaultMaxConcurrentCalls(false));
    expect(await places('host,openai:gpt-4o-mini')).toBe(DEFAULT_MAX_CONCURRENT_CALLS);
  });

  it('serve --help states the defaults', () => {
    const flags = COMMAND_HELP.find((command) => command.name === 'serve')?.groups.flatMap((group) => group.flags);
    const line = SERVE_USAGE.slice(SERVE_USAGE.indexOf('--max-calls N'), SERVE_USAGE.indexOf('--max-queued-calls'));
    const stated = `${LOCAL_CALLS_PER_CORE} per core, 2 to ${DEFAULT_MAX_CONCURRENT_CALLS}, when every model is host or builtin; ${DEFAULT_MAX_CONCURRENT_CALLS} when a provider may answer`;
    expect(flags?.find((flag) => flag.flag === '--max-calls N')?.default).toBe(stated);
    expect(line.replace(/\s+/g, ' ')).toContain(`default: ${stated})`);
    expect(flags?.find((flag) => flag.flag === '--max-queued-calls N')?.default).toBe(String(DEFAULT_MAX_QUEUED_CALLS));
    expect(flags?.find((flag) => flag.flag === '--max-calls-per-principal N')?.default).toBe(
      String(DEFAULT_MAX_CALLS_PER_PRINCIPAL),
    );
  });
});

describe('admission in the HTTP front', () => {
  it('answers discover while calls are queued, hands each place to one call, and drops a waiting call whose client left', async () => {
    const { root, git } = await repositoryWithHangingGit();
    const server = createModelInputServer({
      root,
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: ANONYMOUS,
      repository: { gitCommand: git },
      surveyCache: false,
      admission: { maxConcurrent: 1, maxQueued: 3, maxPerPrincipal: 10 },
    });
    // Serving units the SDK builds (one per request it is handed), by method.
    const built: string[] = [];
    const counted = {
      ...server,
      factory: ((context: { requestInfo?: Request }) => {
        built.push(context.requestInfo?.headers.get('mcp-method') ?? '?');
        return server.factory(context as Parameters<typeof server.factory>[0]);
      }) as typeof server.factory,
    };
    const front = createModelInputHttpFront(counted, {
      logger: silentLogger,
      allowedHosts: ['localhost'],
      allowedOrigins: ['http://localhost'],
    });
    const settled = new Set<number>();
    const controllers = new Map<number, AbortController>();
    const call = (id: number) => {
      const controller = new AbortController();
      controllers.set(id, controller);
      const request = mcpRequest('http://localhost/mcp', {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
      });
      return front
        .fetch(new Request(request, { signal: controller.signal }))
        .then((response) => response.text().then(() => response.status))
        .catch(() => 'aborted')
        .finally(() => settled.add(id));
    };
    const calls = [1, 2, 3, 4].map(call);
    // One call runs (its git hangs); the other three wait in the front, before the SDK has seen them.
    await until(() => gitProcessesRunning() === 1 && server.admission.queued === 3);
    expect(server.admission.running).toBe(1);
    expect(server.admission.queued).toBe(3);
    // A waiting call holds its parsed body only: no server was built for it.
    expect(built).toEqual(['tools/call']);

    for (const method of ['server/discover', 'tools/list']) {
      const cheap = await front.fetch(
        mcpRequest('http://localhost/mcp', { jsonrpc: '2.0', id: 10, method, params: { _meta: meta() } }),
      );
      expect(cheap.status).toBe(200);
      expect(((await cheap.json()) as { result?: unknown }).result).toBeDefined();
    }
    // Answered while every tool call is still running or waiting.
    expect(settled.size).toBe(0);

    // A waiting call whose client goes away leaves the queue; the running one is not disturbed.
    controllers.get(4)!.abort();
    await calls[3];
    expect(server.admission.queued).toBe(2);
    expect(server.admission.running).toBe(1);

    // The running call's client goes away: its place goes to the next call, which runs alone (one git at a time).
    controllers.get(1)!.abort();
    await calls[0];
    await until(() => server.admission.queued === 1 && gitProcessesRunning() === 1);
    expect(server.admission.running).toBe(1);
    expect(server.admission.queued).toBe(1);
    expect(gitProcessesRunning()).toBe(1);
    expect(settled.has(2)).toBe(false);
    expect(built).toEqual(['tools/call', 'server/discover', 'tools/list', 'tools/call']);

    for (const id of [2, 3]) controllers.get(id)!.abort();
    await Promise.all(calls);
    await until(() => gitProcessesRunning() === 0 && server.admission.running === 0);
    expect(server.admission.running).toBe(0);
    expect(server.admission.queued).toBe(0);
    await front.close();
  });
});
