/**
 * Bounds on what a server can make the host do, whatever it answers: servers written here to push
 * each one (2026-07-28 over HTTP, 2025-11-25 over the SDK's in-memory transport), asserting how much
 * work the host did — model calls, questions asked, audit lines — not how long it took.
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { createHost, type HostOptions } from '../../src/host/createHost.js';
import type { TerminalElicitor } from '../../src/host/elicitTerminal.js';
import { isHostError, type HostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { createRateLimiter, type RateLimitClock } from '../../src/host/policies/rateLimit.js';
import type { Approver } from '../../src/host/types.js';
import { createScriptedModel, type ScriptedModel } from '../../src/models/scripted.js';
import { createHostileServer, inputRequired, type Scenario } from '../helpers/hostileServers.js';
import { capturedAuditLog } from './hostFixtures.js';

const APPROVE: Approver = { review: () => Promise.resolve({ kind: 'approve' }) };
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

function sampling(text = 'Pick the files.'): Record<string, unknown> {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 },
  };
}

function elicitation(index: number): Record<string, unknown> {
  return {
    method: 'elicitation/create',
    params: { message: `Question ${index}?`, requestedSchema: { type: 'object', properties: {} } },
  };
}

/** `count` requests made by `make`, keyed `k0`…, in one round. */
function many(count: number, make: (index: number) => Record<string, unknown>): Record<string, unknown> {
  const requests: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) requests[`k${index}`] = make(index);
  return requests;
}

/** A limiter whose clock never waits: a wait it allows passes at once, so only refusals show. */
function instantLimiter(options: { capacity: number; refillPerSecond: number; maxWaitMs: number }) {
  let now = 0;
  const clock: RateLimitClock = {
    now: () => now,
    sleep: (ms) => {
      now += ms;
      return Promise.resolve();
    },
  };
  return createRateLimiter(options, clock);
}

function model(answers: Record<string, string> = {}): ScriptedModel {
  return createScriptedModel(answers);
}

function hostFor(scripted: ScriptedModel, options: Partial<HostOptions> = {}) {
  return createHost({
    models: [{ id: 'scripted', model: scripted, ...TIER_ATTRIBUTES.balanced }],
    approver: APPROVE,
    rateLimiter: createRateLimiter({ capacity: 1000, refillPerSecond: 1000, maxWaitMs: 0 }),
    ...options,
  });
}

async function callModern(scenario: Scenario, options: Partial<HostOptions> = {}, fetch?: (inner: Fetch) => Fetch) {
  const scripted = model({ pick: 'README.md' });
  const captured = await capturedAuditLog();
  const server = createHostileServer(scenario);
  const connection = await hostFor(scripted, { audit: captured.audit, ...options }).connect({
    kind: 'http',
    url: server.url,
    fetch: fetch === undefined ? server.fetch : fetch(server.fetch),
  });
  let error: HostError | undefined;
  try {
    await connection.callTool('summarize_repo', {});
  } catch (caught) {
    if (!isHostError(caught)) throw caught;
    error = caught;
  } finally {
    await connection.close();
  }
  await captured.audit.close();
  return { error, server, model: scripted, lines: captured.text() === '' ? [] : captured.lines() };
}

describe('2026-07-28: one answer, bounded work', () => {
  it('audits a round refused for its state on one line with a count, however many requests it carries', async () => {
    const flood: Scenario = () =>
      inputRequired(
        many(20_000, () => sampling()),
        'S'.repeat(300 * 1024),
      );
    const { error, lines, model: scripted } = await callModern(flood);
    expect(error?.code).toBe('state_too_large');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ decision: 'refused', reason: 'state_too_large', count: 20_000 });
    expect(String(lines[0]?.key)).toMatch(/^k0,k1,k2,k3,k4,k5,k6,k7,…$/);
    expect(scripted.calls).toHaveLength(0);
  });

  it('refuses a round of more than 16 input requests whole: a policy stop, nothing asked', async () => {
    const { error, lines, model: scripted, server } = await callModern(() => inputRequired(many(17, () => sampling())));
    expect(error?.code).toBe('request_invalid');
    expect(error?.message).toContain('17 input requests, the limit is 16');
    expect(scripted.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
    expect(lines).toEqual([expect.objectContaining({ decision: 'refused', reason: 'request_invalid', count: 17 })]);
  });

  it('refuses a round whose rate-limit wait would pass the limit, before any model call', async () => {
    // Two calls in a burst, one a second after, a wait of at most 1 s: ten in one round would wait 8 s.
    const rateLimiter = instantLimiter({ capacity: 2, refillPerSecond: 1, maxWaitMs: 1000 });
    const {
      error,
      lines,
      model: scripted,
    } = await callModern(() => inputRequired(many(10, () => sampling())), {
      rateLimiter,
    });
    expect(error?.code).toBe('rate_limited');
    expect(scripted.calls).toHaveLength(0);
    const refused = lines.filter((line) => line.decision === 'refused');
    expect(refused).toEqual([expect.objectContaining({ reason: 'rate_limited', count: 10 })]);
  });

  it('keeps counting rounds when a leg lost in transit (502) restarts the call', async () => {
    const loop: Scenario = (call) => inputRequired({ pick: sampling() }, `state-${call}`);
    let legs = 0;
    // The sixth tools/call (after round 5 was answered) gets a balancer's 502.
    const balancer = (inner: Fetch): Fetch => {
      return async (url, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
        if (body.method === 'tools/call' && ++legs === 6) return new Response('bad gateway', { status: 502 });
        return inner(url, init);
      };
    };
    const { error, model: scripted } = await callModern(loop, { maxRounds: 5 }, balancer);
    expect(error?.code).toBe('rounds_exceeded');
    expect(scripted.calls).toHaveLength(5);
  });

  it('stops the whole round when the call is interrupted in one of 200 questions', async () => {
    const controller = new AbortController();
    const asked: string[] = [];
    // Ctrl-C in the first question: the terminal elicitor tells the CLI, which aborts the call.
    const elicit: TerminalElicitor = (params) => {
      asked.push(params.message);
      controller.abort();
      return Promise.resolve({ action: 'cancel' });
    };
    const server = createHostileServer(() => inputRequired(many(200, elicitation), 's1'));
    const connection = await hostFor(model(), { elicit, limits: { maxInputRequests: 256 } }).connect({
      kind: 'http',
      url: server.url,
      fetch: server.fetch,
    });
    const error = await connection
      .callTool('summarize_repo', {}, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await connection.close();
    expect(isHostError(error) && error.code).toBe('cancelled');
    expect(asked).toEqual(['Question 0?']);
    expect(server.calls).toHaveLength(1);
  });
});

/** A 2025-11-25 server (the 1.x SDK's low-level server): `onCall` runs for each tools/call. */
async function legacyServer(
  onCall: (server: Server) => Promise<Record<string, unknown>>,
  onInitialized?: (server: Server) => void,
) {
  const server = new Server({ name: 'hostile-legacy', version: '6.6.6' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'ask', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => onCall(server) as never);
  if (onInitialized !== undefined) server.oninitialized = () => onInitialized(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never);
  return { server, target: { kind: 'transport' as const, transport: clientSide, key: 'memory:hostile-legacy' } };
}

describe('2025-11-25: live requests, bounded work', () => {
  it('stops the whole flood when the call is interrupted in one of 200 live questions', async () => {
    const controller = new AbortController();
    const asked: string[] = [];
    const elicit: TerminalElicitor = (params) => {
      asked.push(params.message);
      controller.abort();
      return Promise.resolve({ action: 'cancel' });
    };
    const outcomes: Array<Promise<unknown>> = [];
    const { server, target } = await legacyServer(async (peer) => {
      for (let index = 0; index < 200; index++) {
        outcomes.push(
          peer.elicitInput({ message: `Question ${index}?`, requestedSchema: { type: 'object', properties: {} } }),
        );
      }
      await Promise.allSettled(outcomes);
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const connection = await hostFor(model(), { elicit, maxRounds: 100 }).connect(target);
    const error = await connection
      .callTool('ask', {}, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await Promise.allSettled(outcomes);
    await connection.close();
    await server.close();
    expect(isHostError(error) && error.code).toBe('cancelled');
    expect(asked).toEqual(['Question 0?']);
    // Not even the interrupted question's answer is sent: every one of the 200 is refused.
    const settled = await Promise.allSettled(outcomes);
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(0);
  });

  it('refuses a live sampling request still waiting for approval when its call has ended', async () => {
    let callEnded!: () => void;
    const ended = new Promise<void>((resolve) => (callEnded = resolve));
    // The dialog is still open when the result comes; it is answered (approve) only after the call ended.
    const approver: Approver = { review: () => ended.then(() => ({ kind: 'approve' })) };
    let late: Promise<unknown> | undefined;
    const { server, target } = await legacyServer((peer) => {
      late = peer.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'one more thing' } }],
        maxTokens: 50,
      });
      late.catch(() => {});
      return Promise.resolve({ content: [{ type: 'text', text: 'done already' }] });
    });
    const scripted = model();
    const captured = await capturedAuditLog();
    const connection = await hostFor(scripted, { approver, audit: captured.audit }).connect(target);
    const outcome = await connection.callTool('ask', {});
    callEnded();
    const answer = await late!.then(
      () => 'answered',
      (error: unknown) => (error as Error).message,
    );
    await connection.close();
    await server.close();
    await captured.audit.close();
    expect(outcome.result.content).toEqual([{ type: 'text', text: 'done already' }]);
    expect(answer).toContain('the call has ended');
    expect(scripted.calls).toHaveLength(0);
    expect(captured.lines().filter((line) => line.decision === 'fulfilled')).toHaveLength(0);
  });

  it('rate-limits roots/list outside a call and audits the refusals on two lines', async () => {
    const outcomes: Array<Promise<unknown>> = [];
    let flooded!: () => void;
    const done = new Promise<void>((resolve) => (flooded = resolve));
    const { server, target } = await legacyServer(
      () => Promise.resolve({ content: [] }),
      (peer) => {
        for (let index = 0; index < 200; index++) outcomes.push(peer.listRoots());
        void Promise.allSettled(outcomes).then(() => flooded());
      },
    );
    const captured = await capturedAuditLog();
    const rateLimiter = instantLimiter({ capacity: 5, refillPerSecond: 0, maxWaitMs: 0 });
    const connection = await hostFor(model(), {
      roots: [{ uri: 'file:///work', name: 'work' }],
      rateLimiter,
      audit: captured.audit,
    }).connect(target);
    await done;
    await connection.close();
    await server.close();
    await captured.audit.close();
    const settled = await Promise.allSettled(outcomes);
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    const refused = captured.lines().filter((line) => line.decision === 'refused');
    expect(refused.map((line) => line.count)).toEqual([1, 194]);
    expect(captured.lines().filter((line) => line.decision === 'fulfilled')).toHaveLength(5);
  });
});

describe("a server's output schema with a catastrophic pattern", () => {
  const outputSchema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)+$' } } };
  const structuredContent = { s: `${'a'.repeat(40)}!` };

  // Backtracking would take minutes: the per-test timeout is the guard (no timing is asserted).
  it('is checked in linear time on 2026-07-28', { timeout: 20_000 }, async () => {
    const tool = { name: 'summarize_repo', inputSchema: { type: 'object' }, outputSchema };
    const server = createHostileServer(
      () => ({ resultType: 'complete', content: [], structuredContent }),
      'http://localhost/mcp',
      tool,
    );
    const connection = await hostFor(model()).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const error = await connection.callTool('summarize_repo', {}).catch((caught: unknown) => caught);
    await connection.close();
    expect(isHostError(error) && error.code).toBe('protocol_error');
    expect((error as Error).message).toContain('does not match its outputSchema');
  });

  it(
    'is checked in linear time on 2025-11-25 (the SDK client validates with the same engine)',
    { timeout: 20_000 },
    async () => {
      const server = new Server({ name: 'hostile-legacy', version: '6.6.6' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: 'ask', inputSchema: { type: 'object' as const }, outputSchema: outputSchema as never }],
      }));
      server.setRequestHandler(CallToolRequestSchema, () => ({ content: [], structuredContent }));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide as never);
      const connection = await hostFor(model()).connect({
        kind: 'transport',
        transport: clientSide,
        key: 'memory:redos',
      });
      await connection.listTools();
      const error = await connection.callTool('ask', {}).catch((caught: unknown) => caught);
      await connection.close();
      await server.close();
      expect(isHostError(error) && error.code).toBe('protocol_error');
      expect((error as Error).message).toContain('must match pattern');
    },
  );
});

describe('roots/list in a round', () => {
  it('takes tokens from the roots bucket: a round past it is refused whole', async () => {
    const rateLimiter = instantLimiter({ capacity: 3, refillPerSecond: 0, maxWaitMs: 0 });
    const roots = () => ({ method: 'roots/list', params: {} });
    const { error, lines } = await callModern(() => inputRequired(many(4, roots), 's'), {
      rateLimiter,
      roots: [{ uri: 'file:///work', name: 'work' }],
    });
    expect(error?.code).toBe('rate_limited');
    expect(lines).toEqual([expect.objectContaining({ decision: 'refused', reason: 'rate_limited', count: 4 })]);
  });
});
