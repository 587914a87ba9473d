/**
 * The crash window of single-use state: a leg lost in transit (the instance consumed the state and
 * died, or the balancer answered 502) cannot be retried with the same state, so the host runtime
 * starts the call again — once — and says so in its trace. A state the server refuses stays refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost, lostInTransit } from '../../src/host/createHost.js';
import { isHostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { createTestFront } from '../helpers/servers.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

function hostWithTrace() {
  const trace: string[] = [];
  const host = createHost({
    models: [{ id: 'builtin', model: createBuiltinModel(), ...TIER_ATTRIBUTES.balanced }],
    approver: { review: () => Promise.resolve({ kind: 'approve' }) },
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    trace: (line) => trace.push(line),
  });
  return { host, trace };
}

/** Calls `leg` for every tools/call POST that carries requestState, in order (0-based). */
function onStatefulLeg(inner: Fetch, leg: (index: number, forward: () => Promise<Response>) => Promise<Response>) {
  let index = 0;
  return (async (url, init) => {
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { params?: { requestState?: unknown } }) : {};
    if (body.params?.requestState === undefined) return inner(url, init);
    return leg(index++, () => inner(url, init));
  }) as Fetch;
}

describe('host runtime: a leg lost in transit', () => {
  it('starts the call again once when the server consumed the state and the answer never came', async () => {
    const front = createTestFront({ root: repo.root });
    const direct: Fetch = (url, init) => front.fetch(new Request(url, init));
    // The first retry reaches the server (its state is consumed there), then the "balancer" answers 502.
    const fetch = onStatefulLeg(direct, async (index, forward) => {
      const answer = await forward();
      return index === 0 ? new Response('upstream died', { status: 502 }) : answer;
    });
    const { host, trace } = hostWithTrace();
    const connection = await host.connect({ kind: 'http', url: 'http://localhost/mcp', fetch });
    try {
      const outcome = await connection.callTool('summarize_repo', {});
      expect(outcome.result.isError).not.toBe(true);
      expect(outcome.restarts).toBe(1);
      expect(outcome.rounds).toBe(2);
      expect(
        trace.filter((line) => line.startsWith('restart summarize_repo: round 2 was lost in transit (HTTP 502)')),
      ).toHaveLength(1);
    } finally {
      await connection.close();
    }
  });

  it('restarts at most once: a second loss is the call failing', async () => {
    const front = createTestFront({ root: repo.root });
    const fetch = onStatefulLeg(
      (url, init) => front.fetch(new Request(url, init)),
      () =>
        Promise.reject(
          new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }),
        ),
    );
    const { host, trace } = hostWithTrace();
    const connection = await host.connect({ kind: 'http', url: 'http://localhost/mcp', fetch });
    try {
      const failure = await connection.callTool('summarize_repo', {}).catch((error: unknown) => error);
      expect(isHostError(failure) && failure.code).toBe('protocol_error');
      expect(trace.filter((line) => line.startsWith('restart '))).toHaveLength(1);
    } finally {
      await connection.close();
    }
  });

  it('does not restart when the server answered: a replayed state stays -32602', async () => {
    const front = createTestFront({ root: repo.root });
    const direct: Fetch = (url, init) => front.fetch(new Request(url, init));
    // The first retry is sent twice: the copy consumes the state, so the host's own leg is a replay.
    const fetch = onStatefulLeg(direct, async (index, forward) => {
      if (index === 0) await forward();
      return forward();
    });
    const { host, trace } = hostWithTrace();
    const connection = await host.connect({ kind: 'http', url: 'http://localhost/mcp', fetch });
    try {
      const failure = await connection.callTool('summarize_repo', {}).catch((error: unknown) => error);
      expect(isHostError(failure) && failure.detail.rpcCode).toBe(-32602);
      expect(trace.some((line) => line.startsWith('restart '))).toBe(false);
    } finally {
      await connection.close();
    }
  });

  it('tells transit losses from answers', () => {
    expect(lostInTransit(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toBe('ECONNREFUSED');
    expect(lostInTransit(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(lostInTransit(new Error('Invalid or expired requestState'))).toBeUndefined();
  });
});
