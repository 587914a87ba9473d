/** /healthz, /readyz and drain on the HTTP front (in-process), drain on a real socket, and metrics. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { silentLogger } from '../../src/logger.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { parseModelSpec, type ModelPlan } from '../../src/models/sources.js';
import { createServerMetrics } from '../../src/server/metrics.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import type { HttpFront } from '../../src/transports/http.js';
import { listenHttp } from '../../src/transports/nodeHttp.js';
import { gitProcessesRunning } from '../../src/repo/gitProcess.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { mcpRequest } from '../helpers/rawChannel.js';
import { repoWithFakeGit, TempDirs } from '../repo/fixture.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 't' });

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function ourFront(readiness: Record<string, () => Promise<string>> = {}, models: ModelPlan = parseModelSpec('host')) {
  const metrics = createServerMetrics({ defaultMetrics: false });
  const server = createModelInputServer({
    root: repo.root,
    models,
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    metrics,
  });
  const front = createModelInputHttpFront(server, {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: [],
    metrics,
    readiness,
  });
  return { front, metrics };
}

let id = 1;
const rpc = (front: HttpFront, method: string, params: Record<string, unknown> = {}) =>
  front.fetch(
    mcpRequest('http://localhost/mcp', { jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: META } }),
  );

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** Our front on a small repository and a real socket, with `git` replaced by a script whose body is `script`. */
async function listenWithGit(script: string) {
  const { root, git } = await repoWithFakeGit(temp, {
    files: { 'README.md': '# r\n', 'src/a.ts': 'export const a = 1;\n' },
    script,
  });
  const server = createModelInputServer({
    root,
    models: parseModelSpec('host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    repository: { gitCommand: git },
    surveyCache: false,
  });
  return listenHttp(
    (port) =>
      createModelInputHttpFront(server, {
        logger: silentLogger,
        allowedHosts: [`127.0.0.1:${port}`],
        allowedOrigins: [],
      }),
    '127.0.0.1',
    0,
  );
}

/** A summarize_repo first call over a real socket. */
const callOver = (origin: string) =>
  fetch(
    mcpRequest(`${origin}/mcp`, {
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: META },
    }),
  );

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('operations endpoints', () => {
  it('/healthz is alive; /readyz runs every check and names the failing one', async () => {
    let storeUp = true;
    const { front } = ourFront({
      keys: () => Promise.resolve('1 key(s) loaded'),
      store: () => (storeUp ? Promise.resolve('redis reachable') : Promise.reject(new Error('connection refused'))),
    });
    const health = await front.fetch(new Request('http://anything/healthz'));
    expect(health.status).toBe(200);
    const ready = await front.fetch(new Request('http://anything/readyz'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { keys: { ok: true }, store: { ok: true } } });
    storeUp = false;
    const notReady = await front.fetch(new Request('http://anything/readyz'));
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      status: 'not_ready',
      checks: { store: { ok: false, detail: 'connection refused' } },
    });
    expect((await front.fetch(new Request('http://anything/readyz', { method: 'POST' }))).status).toBe(405);
  });

  it('draining: /readyz 503, new MCP requests 503 with Connection: close; in-flight ones tracked', async () => {
    const { front } = ourFront();
    expect((await rpc(front, 'server/discover')).status).toBe(200);
    const slow = rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} });
    let idle = false;
    front.drain();
    const waiting = front.idle().then(() => (idle = true));
    const refused = await rpc(front, 'server/discover');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await (await front.fetch(new Request('http://localhost/readyz'))).json()).toMatchObject({
      status: 'draining',
    });
    // The request that was in flight when draining began still gets its answer.
    expect(((await (await slow).json()) as { result: { resultType: string } }).result.resultType).toBe(
      'input_required',
    );
    await waiting;
    expect(idle).toBe(true);
  });

  it('drain on a real socket: the tool call in flight finishes, then the listener is gone', async () => {
    // git waits for a gate the test opens only once the drain has begun.
    const gate = path.join(await temp.make('gate-'), 'open');
    const listening = await listenWithGit(`while [ ! -f '${gate}' ]; do sleep 0.05; done\nexec git "$@"`);
    const inFlight = callOver(listening.origin);
    await until(() => gitProcessesRunning() > 0);
    const drained = listening.drain(20_000);
    await writeFile(gate, '');
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { result: { resultType: string } }).result.resultType).toBe('input_required');
    expect(await drained).toBe(true);
    await expect(fetch(`${listening.origin}/healthz`)).rejects.toThrow();
  });

  it('drain with a tool call that outlives the timeout: gives up at the timeout, the call is cut off', async () => {
    const listening = await listenWithGit('exec sleep 30');
    const inFlight = callOver(listening.origin).then(
      () => 'answered',
      () => 'cut off',
    );
    await until(() => gitProcessesRunning() > 0);
    expect(await listening.drain(300)).toBe(false);
    expect(await inFlight).toBe('cut off');
    await expect(fetch(`${listening.origin}/healthz`)).rejects.toThrow();
    // The call's client is gone: its git is killed.
    await until(() => gitProcessesRunning() === 0);
  });

  it('counts requests by method and outcome, rounds, input_required and rejections by reason', async () => {
    const { front, metrics } = ourFront();
    const first = (await (await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} })).json()) as any;
    const retry = { name: 'summarize_repo', arguments: {}, requestState: first.result.requestState };
    await rpc(front, 'tools/call', { ...retry, inputResponses: { pick_files: answer('["README.md"]') } });
    await rpc(front, 'tools/call', { ...retry, inputResponses: { pick_files: answer('["README.md"]') } });
    // The outcome is read from a clone of each response after it is sent: wait for the third (bounded).
    let text = '';
    for (let i = 0; i < 100 && !text.includes('outcome="error"} 1'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      text = await metrics.registry.metrics();
    }
    expect(text).toContain('mmi_requests_total{method="tools/call",outcome="input_required"} 2');
    expect(text).toContain('mmi_requests_total{method="tools/call",outcome="error"} 1');
    expect(text).toContain('mmi_rounds_total 1');
    expect(text).toContain('mmi_input_required_total 2');
    expect(text).toContain('mmi_state_rejections_total{reason="replayed"} 1');
    expect(text).toContain('mmi_model_calls_total{source="host",model="host",outcome="ok"} 1');
    expect(text).toContain('mmi_legacy_sessions_open 0');
  });

  it('counts server-owned model calls, tokens and latency by source, and the open 2025-11-25 sessions', async () => {
    // The built-in model, reporting 100 + 50 tokens per call like a provider would.
    const inner = createBuiltinModel();
    const model: CompletionModel = {
      name: 'counting',
      complete: async (request) => {
        const result = await inner.complete(request);
        request.onUsage?.({ inputTokens: 100, outputTokens: 50 });
        return result;
      },
    };
    const { front, metrics } = ourFront({}, { spec: 'counting', sourceFor: () => ({ kind: 'server', model }) });
    const done = (await (await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} })).json()) as any;
    expect(done.result.resultType).toBe('complete');
    const opened = await front.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: id++,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'm', version: '0' } },
        }),
      }),
    );
    expect(opened.status).toBe(200);
    await opened.text();
    const text = await metrics.registry.metrics();
    const count = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    const calls = count(/^mmi_model_calls_total\{source="server",model="counting",outcome="ok"\} (\d+)$/m);
    expect(calls).toBeGreaterThan(0);
    expect(count(/^mmi_model_tokens_total\{source="server",model="counting"\} (\d+)$/m)).toBe(150 * calls);
    expect(count(/^mmi_model_latency_seconds_count\{source="server",model="counting"\} (\d+)$/m)).toBe(calls);
    expect(text).toContain('mmi_legacy_sessions_open 1');
    await front.close();
  });
});
