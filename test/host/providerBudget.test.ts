/**
 * Budgets count what the provider receives. A hostile server (written here) offers tools with
 * huge descriptions in a round of many requests; the host's model is `openai:` against a fake
 * OpenAI-compatible endpoint that records every request body. Nothing over budget may reach it,
 * and the audit lines carry the bytes of the serialized provider request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost, type HostOptions } from '../../src/host/createHost.js';
import { parseHostModelSpec } from '../../src/host/hostModels.js';
import { isHostError, type HostError } from '../../src/host/hostError.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import type { Approver } from '../../src/host/types.js';
import { createHostileServer, inputRequired, type Scenario } from '../helpers/hostileServers.js';
import { capturedAuditLog } from './hostFixtures.js';
import { chatCompletion, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';

const APPROVE: Approver = { review: () => Promise.resolve({ kind: 'approve' }) };

/** A sampling request offering one tool whose description is `descriptionBytes` long. */
function toolRequest(descriptionBytes: number): Record<string, unknown> {
  return {
    method: 'sampling/createMessage',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Which file?' } }],
      maxTokens: 100,
      tools: [
        {
          name: 'read_file',
          description: 'd'.repeat(descriptionBytes),
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
      toolChoice: { mode: 'auto' },
    },
  };
}

/** Round 1: `count` requests with `descriptionBytes`-long tool descriptions; then a result. */
function toolFlood(count: number, descriptionBytes: number): Scenario {
  return (call) => {
    if (call > 1) return { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
    const requests: Record<string, unknown> = {};
    for (let index = 0; index < count; index++) requests[`ask${index}`] = toolRequest(descriptionBytes);
    return inputRequired(requests, 'flood-state');
  };
}

let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider('openai', () => ({ body: chatCompletion({ text: 'README.md' }) }));
});
afterAll(() => provider.close());

async function run(scenario: Scenario, options: Partial<HostOptions> = {}) {
  provider.reset();
  const models = await parseHostModelSpec('openai:fake-gpt', { env: { OPENAI_BASE_URL: provider.baseUrl } });
  const audit = await capturedAuditLog();
  const host = createHost({
    models,
    approver: APPROVE,
    audit: audit.audit,
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    ...options,
  });
  const server = createHostileServer(scenario);
  const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
  const lines = async () => {
    await audit.audit.close();
    return audit.text() === '' ? [] : audit.lines();
  };
  try {
    const outcome = await connection.callTool('summarize_repo', {});
    return { outcome, lines: await lines(), server };
  } catch (error) {
    if (!isHostError(error)) throw error;
    return { error: error as HostError, lines: await lines(), server };
  } finally {
    await connection.close();
  }
}

describe('budgets count the serialized provider request', () => {
  it('refuses 40 requests with 250 KB tool descriptions before any reaches the endpoint', async () => {
    // Past the input-request cap (16) too: raised here so that the budget is what stops it.
    const { error, lines, server } = await run(toolFlood(40, 250_000), { limits: { maxInputRequests: 64 } });
    expect(error?.code).toBe('budget_exceeded');
    expect(provider.requests).toHaveLength(0);
    // The round was never answered.
    expect(server.calls).toHaveLength(1);
    const refused = lines.filter((line) => line.decision === 'refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toBe('budget_exceeded');
    // The bytes the provider would have received: the description and more, not the 55 bytes of the messages.
    expect(refused[0]?.bytes).toBeGreaterThan(250_000);
    expect(lines.some((line) => line.decision === 'approved' || line.decision === 'fulfilled')).toBe(false);
  });

  it('audits the bytes the endpoint received and counts them against the budget', async () => {
    const { outcome, lines } = await run(toolFlood(1, 20_000));
    expect(outcome?.result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(provider.requests).toHaveLength(1);
    const received = provider.requests[0]!;
    expect(received.body.tools[0].function.description).toHaveLength(20_000);
    const approved = lines.find((line) => line.decision === 'approved');
    expect(approved?.bytes).toBe(received.bytes);
    expect(outcome?.usage.bytes).toBeGreaterThan(received.bytes);
  });

  it('stops within the call budget across rounds: the tool definitions of every round count', async () => {
    // 60 KB of tools a round fits the round budget, but only twice in a call budget of 150,000 bytes.
    const scenario: Scenario = (call) =>
      call > 20 ? { resultType: 'complete', content: [] } : inputRequired({ ask: toolRequest(60_000) }, `s${call}`);
    const models = await parseHostModelSpec('openai:fake-gpt', { env: { OPENAI_BASE_URL: provider.baseUrl } });
    provider.reset();
    const host = createHost({
      models,
      approver: APPROVE,
      maxRounds: 20,
      budgets: { bytesPerCall: 150_000 },
      rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    });
    const server = createHostileServer(scenario);
    const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const error = await connection.callTool('summarize_repo', {}).catch((caught: unknown) => caught);
    await connection.close();
    expect(isHostError(error) && error.code).toBe('budget_exceeded');
    expect(provider.requests).toHaveLength(2);
  });
});
