/**
 * What the host hands its approver besides the requests: the model that will answer each one, resolved as the host
 * will resolve it; and a signal that aborts — closing an open dialog — when the request goes away (a 2025-11-25
 * server withdraws its live request, or the call's own request times out).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';

import { summarizeRound } from '../../../src/host/approval/index.js';
import { createHost } from '../../../src/host/createHost.js';
import { isHostError } from '../../../src/host/hostError.js';
import { createRateLimiter } from '../../../src/host/policies/rateLimit.js';
import { TIER_ATTRIBUTES } from '../../../src/host/policies/modelPolicy.js';
import type { ApprovalRound, Approver } from '../../../src/host/types.js';
import { createScriptedModel } from '../../../src/models/scripted.js';
import { createLegacySampler } from '../../fixtures/host/legacySampler.mjs';
import { complete, createHostileServer, inputRequired } from '../../helpers/hostileServers.js';

const limiter = () => createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 });

/** An approver that never answers: it records the round and resolves only when the round's signal aborts. */
function waitingApprover(seen: { round?: ApprovalRound; reason?: string }): Approver {
  return {
    review: (round, signal) => {
      seen.round = round;
      return new Promise((resolve) => {
        signal?.addEventListener('abort', () => {
          seen.reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
          resolve({ kind: 'deny', reason: `dialog closed: ${seen.reason}` });
        });
      });
    },
  };
}

describe('the round the approver is shown', () => {
  it('names the model that will answer each request: a hint picks the strong entry, as the host will', async () => {
    const server = createHostileServer((call, seen) =>
      call === 1
        ? inputRequired(
            {
              pick_files: {
                method: 'sampling/createMessage',
                params: {
                  messages: [{ role: 'user', content: { type: 'text', text: 'Pick.' } }],
                  maxTokens: 20,
                  modelPreferences: { hints: [{ name: 'strong' }] },
                },
              },
              rank: {
                method: 'sampling/createMessage',
                params: { messages: [{ role: 'user', content: { type: 'text', text: 'Rank.' } }], maxTokens: 20 },
              },
            },
            's1',
          )
        : complete(`got ${Object.keys(seen.inputResponses ?? {}).join(',')}`),
    );
    const rounds: ApprovalRound[] = [];
    const cheap = createScriptedModel({ pick_files: 'a', rank: 'b' });
    const strong = createScriptedModel({ pick_files: 'c', rank: 'd' });
    const host = createHost({
      models: [
        { id: 'cheap-model', model: cheap, ...TIER_ATTRIBUTES.cheap },
        { id: 'strong-model', model: strong, ...TIER_ATTRIBUTES.strong },
      ],
      approver: { review: async (round) => (rounds.push(round), { kind: 'approve' }) },
      rateLimiter: limiter(),
    });
    const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
    await connection.callTool('summarize_repo', {});
    await connection.close();
    expect(rounds[0]?.answeredBy).toEqual(['strong-model', 'cheap-model']);
    // The dialog says so, and the models that answered are the ones it named.
    expect(summarizeRound(rounds[0] as ApprovalRound).body).toContain(
      'Model:  strong-model answers 1, cheap-model answers 1',
    );
    expect(strong.calls.map((request) => request.key)).toEqual(['pick_files']);
    expect(cheap.calls.map((request) => request.key)).toEqual(['rank']);
  });
});

describe('a request that goes away closes its dialog', () => {
  async function legacy(options: { timeoutMs?: number }, requestTimeoutMs?: number) {
    const server = createLegacySampler(options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const seen: { round?: ApprovalRound; reason?: string } = {};
    const host = createHost({
      models: [{ id: 'scripted', model: createScriptedModel({}), ...TIER_ATTRIBUTES.balanced }],
      approver: waitingApprover(seen),
      rateLimiter: limiter(),
      ...(requestTimeoutMs !== undefined && { requestTimeoutMs }),
    });
    const connection = await host.connect({ kind: 'transport', transport: clientSide, key: 'memory:legacy' });
    const outcome = await connection.callTool('ask', {}).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await connection.close();
    await server.close();
    return { seen, outcome };
  }

  it('when the 2025-11-25 server withdraws its live request (its own timeout)', async () => {
    const { seen, outcome } = await legacy({ timeoutMs: 200 });
    expect(seen.round?.requests).toHaveLength(1);
    expect(seen.reason).toMatch(/^the server withdrew its request \(.*timed out.*\)$/i);
    expect(outcome).toBeDefined();
  });

  it("when the call's own request times out first", async () => {
    const { seen, outcome } = await legacy({}, 300);
    expect(seen.round?.requests).toHaveLength(1);
    expect(seen.reason).toMatch(/^the call ended before an answer \(.*timed out.*\)$/i);
    expect('error' in outcome && isHostError(outcome.error) && outcome.error.code).toBe('protocol_error');
  });
});
