/**
 * Per-principal limits on one process (the in-process store; the fleet tests show the same over
 * Redis): tool calls per minute and server-owned model tokens per day. Over HTTP a refusal is 429 with
 * Retry-After; on a front without status codes (stdio) it is an isError result. Other principals are
 * unaffected; the rounds of an admitted call always finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { silentLogger } from '../../src/logger.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import type { ModelPlan } from '../../src/models/sources.js';
import { createServerMetrics } from '../../src/server/metrics.js';
import { createPrincipalLimits } from '../../src/server/principalLimits.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { createMemoryStore, StoreUnavailableError, type SharedStore } from '../../src/state/stores/index.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { mcpRequest } from '../helpers/rawChannel.js';

const TOKENS = new Map([
  ['token-alice-0123456789', 'alice'],
  ['token-bob-012345678901', 'bob'],
]);
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 't' });

/** The built-in model, reporting 100 + 50 tokens per call like a provider would. */
const countingModel = (): CompletionModel => {
  const inner = createBuiltinModel();
  return {
    name: 'counting',
    complete: async (request) => {
      const result = await inner.complete(request);
      request.onUsage?.({ inputTokens: 100, outputTokens: 50 });
      return result;
    },
  };
};
const plan = (source: 'host' | 'server'): ModelPlan => {
  const model = countingModel();
  return {
    spec: source,
    sourceFor: () => (source === 'host' ? { kind: 'host' } : { kind: 'server', model }),
  };
};

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function front(options: {
  store?: SharedStore;
  model?: 'host' | 'server';
  callsPerMinute?: number;
  tokensPerDay?: number;
  where: 'http' | 'server';
}) {
  const store = options.store ?? createMemoryStore();
  const metrics = createServerMetrics({ defaultMetrics: false });
  const limits = createPrincipalLimits({
    store,
    logger: silentLogger,
    ...(options.callsPerMinute !== undefined && { callsPerMinute: options.callsPerMinute }),
    ...(options.tokensPerDay !== undefined && { tokensPerDay: options.tokensPerDay }),
  });
  const server = createModelInputServer({
    root: repo.root,
    models: plan(options.model ?? 'host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    store,
    metrics,
    ...(limits !== undefined && { limits, admitCalls: options.where === 'server' }),
  });
  const http = createModelInputHttpFront(server, {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: [],
    tokens: TOKENS,
    metrics,
    ...(options.where === 'http' && limits !== undefined && { limits }),
  });
  let id = 1;
  const call = async (principal: string, extra: Record<string, unknown> = {}) => {
    const token = [...TOKENS].find(([, name]) => name === principal)?.[0] as string;
    const message = {
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, ...extra, _meta: META },
    };
    const response = await http.fetch(
      mcpRequest('http://localhost/mcp', message, { authorization: `Bearer ${token}` }),
    );
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };
  return { call, metrics };
}

describe('per-principal limits', () => {
  it('over HTTP: 429 with Retry-After past the call rate; other principals and admitted calls go on', async () => {
    const { call, metrics } = front({ callsPerMinute: 2, where: 'http' });
    const first = await call('alice');
    expect(first.body.result.resultType).toBe('input_required');
    await call('alice');
    const refused = await call('alice');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({ code: -32000, data: { limit: 'rate' } });
    expect(refused.body.error.message).toContain('2 tool calls per minute');
    expect((await call('bob')).status).toBe(200);
    const retry = await call('alice', {
      requestState: first.body.result.requestState,
      inputResponses: { pick_files: answer('["README.md"]') },
    });
    expect(retry.body.result.resultType).toBe('input_required');
    expect(await metrics.registry.getSingleMetricAsString('mmi_limits_hit_total')).toContain('limit="rate"} 1');
  });

  it('server-owned model tokens per day: charged as spent, the next call refused once the budget is used', async () => {
    const { call } = front({ tokensPerDay: 200, model: 'server', where: 'http' });
    // One call runs two model steps of 150 tokens each: it finishes over the budget (300 > 200)…
    const done = await call('alice');
    expect(done.body.result.isError).not.toBe(true);
    // …and the next one is refused (charging is asynchronous: wait for it, bounded).
    let refused = await call('alice');
    for (let i = 0; i < 20 && refused.status !== 429; i++) refused = await call('alice');
    expect(refused.status).toBe(429);
    expect(refused.body.error.data).toMatchObject({ limit: 'tokens' });
    expect((await call('bob')).body.result.isError).not.toBe(true);
  });

  it('on a front without status codes (stdio): an isError result that says why', async () => {
    const { call } = front({ callsPerMinute: 1, where: 'server' });
    expect((await call('alice')).body.result.resultType).toBe('input_required');
    const refused = await call('alice');
    expect(refused.status).toBe(200);
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result.content[0].text).toMatch(/^Rate limit: more than 1 tool calls per minute/);
    expect((await call('bob')).body.result.resultType).toBe('input_required');
  });

  it('refuses new calls (503, saying so) when the store cannot count them', async () => {
    const down: SharedStore = {
      ...createMemoryStore(),
      kind: 'redis',
      limiter: () => ({
        take: () => Promise.reject(new StoreUnavailableError('redis://127.0.0.1:1/')),
        check: () => Promise.reject(new StoreUnavailableError('redis://127.0.0.1:1/')),
        charge: () => Promise.reject(new StoreUnavailableError('redis://127.0.0.1:1/')),
      }),
    };
    const { call } = front({ store: down, callsPerMinute: 5, where: 'http' });
    const refused = await call('alice');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.body.error.message).toContain('shared store is unreachable');
  });
});
