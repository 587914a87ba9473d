/**
 * The legacy adapter over HTTP: the 1.x SDK client (2025-11-25) gets a session on the same endpoint
 * and answers live sampling requests on the SSE stream of its tools/call. Sessions are bounded
 * (count, idle expiry with an injected clock, DELETE, 404), and a 2026-07-28 client is served
 * statelessly next to it by the same running server.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLING_DEPRECATION_WARNING } from '../../src/legacy/deprecation.js';
import type { LegacyOptions } from '../../src/app/modelInputServer.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import type { HttpFront } from '../../src/transports/http.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer } from '../helpers/processes.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';
import { capturingLogger } from '../helpers/servers.js';
import { HOST_MODEL, HOST_SUMMARY, legacyPeer, texts, type SamplingMode } from './legacyPeer.js';

const URL_ = 'http://localhost/mcp';
let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

interface FrontSetup {
  model?: string;
  maxSamplesPerCall?: number;
  stateTtlSeconds?: number;
  legacy?: LegacyOptions | false;
  tokens?: Map<string, string>;
}

function legacyFront(setup: FrontSetup = {}) {
  const logger = capturingLogger();
  const legacy =
    setup.legacy === false
      ? false
      : {
          ...setup.legacy,
          ...(setup.maxSamplesPerCall !== undefined && { maxSamplesPerCall: setup.maxSamplesPerCall }),
        };
  const server = createModelInputServer({
    root: repo.root,
    models: parseModelSpec(setup.model ?? 'host'),
    keyRing: createEphemeralKeyRing(),
    logger,
    defaultPrincipal: 'anonymous',
    legacy,
    ...(setup.stateTtlSeconds !== undefined && { stateTtlSeconds: setup.stateTtlSeconds }),
  });
  const front = createModelInputHttpFront(server, {
    logger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
    ...(setup.tokens !== undefined && { tokens: setup.tokens }),
  });
  return { front, logger };
}

/** A 1.x client whose model answers every sampling request with `answer`. */
async function answeringPeer(front: HttpFront, answer: (params: Record<string, any>) => Promise<string>) {
  const client = new Client({ name: 'answering-peer', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: await answer(request.params as Record<string, any>) },
    model: HOST_MODEL,
  }));
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    fetch: (url, init) => front.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return { client, transport };
}

async function connectPeer(front: HttpFront, mode: SamplingMode = 'answer', headers: Record<string, string> = {}) {
  const peer = legacyPeer(mode);
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    fetch: (url, init) => front.fetch(new Request(url, init)),
    requestInit: { headers },
  });
  await peer.client.connect(transport);
  return { ...peer, transport };
}

/** A hand-written 2025-11-25 POST (or another method) to the in-process front. */
function legacyRequest(message: unknown, sessionId?: string, method = 'POST', headers: Record<string, string> = {}) {
  return new Request(URL_, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId !== undefined && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
      ...headers,
    },
    ...(method === 'POST' && { body: JSON.stringify(message) }),
  });
}

const initialize = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-legacy', version: '0' } },
});
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

/** The JSON-RPC message of a JSON or SSE response. */
async function messageOf(response: Response): Promise<Record<string, any> | undefined> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text.length > 0 ? (JSON.parse(text) as Record<string, any>) : undefined;
  }
  const data = text.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
  return data === undefined ? undefined : (JSON.parse(data.slice(6)) as Record<string, any>);
}

async function openSession(front: HttpFront, headers: Record<string, string> = {}): Promise<Response> {
  return front.fetch(legacyRequest(initialize(), undefined, 'POST', headers));
}

describe('a 2025-11-25 client over HTTP', () => {
  it('gets a session, runs summarize_repo with live sampling, and DELETE ends the session', async () => {
    const { front, logger } = legacyFront();
    const peer = await connectPeer(front);
    expect(peer.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(front.sessions?.count).toBe(1);

    const result = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual([HOST_SUMMARY]);
    expect((result.structuredContent as { model: string }).model).toBe(HOST_MODEL);
    expect(peer.samples.map((sample) => sample['includeContext'])).toEqual(['none', 'none']);
    expect(peer.samples[0]?.['modelPreferences']).toEqual({ costPriority: 0.8, intelligencePriority: 0.2 });

    // A second session in the same process: one deprecation warning in all.
    const second = await connectPeer(front);
    expect(front.sessions?.count).toBe(2);
    expect(logger.lines.filter((line) => line.includes(SAMPLING_DEPRECATION_WARNING))).toHaveLength(1);

    const ended = peer.transport.sessionId as string;
    await peer.transport.terminateSession();
    expect(front.sessions?.count).toBe(1);
    const gone = await front.fetch(legacyRequest(list(9), ended));
    expect(gone.status).toBe(404);
    expect((await messageOf(gone))?.['error']).toMatchObject({ code: -32001, message: 'Session not found' });
    await peer.client.close();
    await second.client.close();
    await front.close();
    expect(front.sessions?.count).toBe(0);
  });

  it('a rejected sampling request is an isError result; so is a call past the sample limit', async () => {
    const rejecting = legacyFront();
    const refused = await connectPeer(rejecting.front, 'reject');
    const result = await refused.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain("refused the sampling request for 'pick_files' (error -1");
    await refused.client.close();
    await rejecting.front.close();

    const limited = legacyFront({ maxSamplesPerCall: 1 });
    const peer = await connectPeer(limited.front);
    const capped = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(capped.isError).toBe(true);
    expect(texts(capped).join('\n')).toContain('allows 1 per tool call');
    expect(peer.samples).toHaveLength(1);
    await peer.client.close();
    await limited.front.close();
  });

  it('a 2026-07-28 request carrying a stray Mcp-Session-Id is still served statelessly', async () => {
    const { front } = legacyFront();
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    const response = await front.fetch(mcpRequest(URL_, body, { 'mcp-session-id': 'not-a-session' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await messageOf(response))?.['result']?.tools).toHaveLength(3);
    await front.close();
  });

  it('an unusable sampling answer is -32602 with the input key and reason, as on 2026-07-28; a late one is an isError result', async () => {
    // One behaviour on both revisions: the client's model answered unusably and no server-owned model
    // can answer instead. The message names neither inputResponses nor requestState (never sent here).
    const unusable = legacyFront();
    const garbled = await answeringPeer(unusable.front, async () => 'README.md, probably');
    const failure = await garbled.client.callTool({ name: 'summarize_repo', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; message?: string; data?: unknown },
    );
    expect(failure?.code).toBe(-32602);
    expect(failure?.data).toEqual({
      key: 'pick_files',
      reason: expect.stringContaining('no JSON array of file paths'),
    });
    expect(failure?.message).toContain("unusable answer for input 'pick_files'");
    expect(failure?.message).not.toMatch(/inputResponses|requestState/);
    await garbled.client.close();
    await unusable.front.close();

    const expiring = legacyFront({ stateTtlSeconds: 1 });
    const slow = await answeringPeer(expiring.front, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // the human takes longer than --state-ttl
      return '["README.md"]';
    });
    const late = await slow.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(late.isError).toBe(true);
    expect(texts(late).join('\n')).toContain(
      "came back after this call's state had expired (the server limits each round with --state-ttl)",
    );
    await slow.client.close();
    await expiring.front.close();
  });

  it('at most 8 legacy tool calls in flight on one session: the next one is an isError result at once', async () => {
    const { front } = legacyFront();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const peer = await answeringPeer(front, async (params) => {
      waiting += 1;
      await released;
      return params['modelPreferences']?.costPriority === 0.8 ? '["README.md"]' : HOST_SUMMARY;
    });
    const held = Array.from({ length: 8 }, () => peer.client.callTool({ name: 'summarize_repo', arguments: {} }));
    while (waiting < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    const ninth = peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    let raced = false;
    const asked = (async () => {
      while (!raced && waiting < 9) await new Promise((resolve) => setTimeout(resolve, 10));
      return 'asked the client again' as const;
    })();
    const refused = await Promise.race([ninth, asked]);
    raced = true;
    expect(refused).not.toBe('asked the client again');
    expect((refused as { isError?: boolean }).isError).toBe(true);
    expect(texts(refused).join('\n')).toContain('already has 8 tool calls in flight');
    release();
    for (const result of await Promise.all(held)) expect(texts(result)).toEqual([HOST_SUMMARY]);
    // The calls have ended: the place is free again.
    const again = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(texts(again)).toEqual([HOST_SUMMARY]);
    await peer.client.close();
    await front.close();
  });

  it('a request naming 2026-07-28 in MCP-Protocol-Version stays on the modern path, whatever session it names', async () => {
    const { front } = legacyFront();
    const opened = await openSession(front);
    const live = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    const modern = { 'mcp-session-id': live };
    // Without _meta: the envelope gate's -32602, exactly as without the adapter (not the session's answer).
    const bare = await front.fetch(mcpRequest(URL_, list(2), modern));
    expect(bare.status).toBe(400);
    expect((await messageOf(bare))?.['error']).toMatchObject({ code: -32602, data: { missing: ['_meta'] } });
    // initialize with a modern header: the SDK's header/body mismatch (-32020), and no session.
    const mismatched = await front.fetch(mcpRequest(URL_, initialize(3)));
    expect(mismatched.headers.get('mcp-session-id')).toBeNull();
    expect((await messageOf(mismatched))?.['error']?.code).toBe(-32020);
    expect(front.sessions?.count).toBe(1);
    await front.close();
  });

  it('legacy: false refuses initialize (-32022) and opens no session', async () => {
    const { front } = legacyFront({ legacy: false });
    const response = await openSession(front);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await messageOf(response))?.['error']?.code).toBe(-32022);
    expect(front.sessions).toBeUndefined();
    await front.close();
  });
});

describe('legacy HTTP sessions are bounded', () => {
  it('at most maxSessions; 503 beyond; DELETE frees a place; GET 405; unknown id 404', async () => {
    const { front } = legacyFront({ legacy: { maxSessions: 2, maxSessionsPerPrincipal: 3 } });
    const ids: string[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await openSession(front);
      expect(response.status).toBe(200);
      ids.push(response.headers.get('mcp-session-id') as string);
      await response.text();
    }
    const refused = await openSession(front);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect((await messageOf(refused))?.['error']?.message).toContain('at most 2');

    expect((await front.fetch(legacyRequest(undefined, ids[0], 'GET'))).status).toBe(405);
    expect((await front.fetch(legacyRequest(undefined, 'no-such-session', 'DELETE'))).status).toBe(404);
    expect((await front.fetch(legacyRequest(undefined, ids[0], 'DELETE'))).status).toBe(200);
    expect(front.sessions?.count).toBe(1);
    const reopened = await openSession(front);
    expect(reopened.status).toBe(200);
    await reopened.text();
    expect(front.sessions?.count).toBe(2);
    await front.close();
  });

  it('abandoned sessions expire after the idle timeout: memory does not grow with them', async () => {
    const clock = { now: 0 };
    const { front } = legacyFront({
      legacy: { maxSessions: 3, maxSessionsPerPrincipal: 3, sessionIdleSeconds: 60, now: () => clock.now },
    });
    const abandoned: string[] = [];
    for (let round = 0; round < 12; round++) {
      clock.now += 25_000;
      const response = await openSession(front);
      expect(response.status).toBe(200); // room is made by reclaiming idle sessions, never by refusing
      abandoned.push(response.headers.get('mcp-session-id') as string);
      await response.text();
      expect(front.sessions?.count).toBeLessThanOrEqual(3);
    }
    clock.now += 60_000;
    expect(await front.sessions?.sweep()).toBe(3);
    expect(front.sessions?.count).toBe(0);
    for (const id of abandoned.slice(-3)) {
      expect((await front.fetch(legacyRequest(list(2), id))).status).toBe(404);
    }
    await front.close();
  });

  it('a session waiting for a sampling answer is not idle, however long the wait', async () => {
    const clock = { now: 0 };
    // The lifetime (tested below) is set out of the way: this is about idleness.
    const { front } = legacyFront({
      legacy: { sessionIdleSeconds: 1, sessionLifetimeSeconds: 7 * 86_400, now: () => clock.now },
    });
    const peer = legacyPeer('answer');
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const { CreateMessageRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    peer.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      peer.samples.push(request.params as Record<string, any>);
      asked();
      await answered;
      const picking = request.params.modelPreferences?.costPriority === 0.8;
      const text = picking ? '["README.md"]' : HOST_SUMMARY;
      return { role: 'assistant', content: { type: 'text', text }, model: HOST_MODEL };
    });
    await peer.client.connect(
      new StreamableHTTPClientTransport(new URL(URL_), { fetch: (url, init) => front.fetch(new Request(url, init)) }),
    );
    const call = peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    await askedOnce;
    clock.now += 3_600_000;
    expect(await front.sessions?.sweep()).toBe(0);
    answer();
    const result = await call;
    expect(texts(result)).toEqual([HOST_SUMMARY]);
    // Once the client has read the rest of the tools/call stream, the session can go idle again.
    let swept = 0;
    for (let turn = 0; turn < 100 && swept === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      clock.now += 3_600_000;
      swept = (await front.sessions?.sweep()) ?? 0;
    }
    expect(swept).toBe(1);
    await peer.client.close();
    await front.close();
  });

  it('a session belongs to the principal that opened it', async () => {
    const tokens = new Map([
      ['alice-token-0123456789', 'alice'],
      ['bob-token-0123456789ab', 'bob'],
    ]);
    const { front } = legacyFront({ tokens });
    const opened = await openSession(front, { authorization: 'Bearer alice-token-0123456789' });
    const id = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    const asBob = await front.fetch(
      legacyRequest(list(2), id, 'POST', { authorization: 'Bearer bob-token-0123456789ab' }),
    );
    expect(asBob.status).toBe(404);
    const asAlice = await front.fetch(
      legacyRequest(list(3), id, 'POST', { authorization: 'Bearer alice-token-0123456789' }),
    );
    expect((await messageOf(asAlice))?.['result']?.tools).toHaveLength(3);
    expect((await openSession(front)).status).toBe(401);
    await front.close();
  });
});

describe('one running server, both eras at once', () => {
  it('a 2026-07-28 client (MRTR) and a 2025-11-25 client (live sampling) summarize concurrently', async () => {
    const server = await startHttpServer(['--root', repo.root, '--model', 'host']);
    try {
      const legacy = legacyPeer('answer');
      const legacyTransport = new StreamableHTTPClientTransport(new URL(server.url));
      await legacy.client.connect(legacyTransport);

      const modern = new ModernClient(
        { name: 'modern-peer', version: '1.0.0' },
        { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const model = createBuiltinModel();
      let modernSamples = 0;
      modern.setRequestHandler('sampling/createMessage', (request, ctx) => {
        modernSamples += 1;
        return model.complete({ key: String(ctx.mcpReq.id), params: request.params });
      });
      await modern.connect(new ModernTransport(new URL(server.url)));

      const [old, current] = await Promise.all([
        legacy.client.callTool({ name: 'summarize_repo', arguments: {} }),
        modern.callTool({ name: 'summarize_repo', arguments: {} }),
      ]);
      expect(texts(old)).toEqual([HOST_SUMMARY]);
      expect(legacy.samples).toHaveLength(2);
      expect(legacyTransport.sessionId).toBeDefined();
      expect(current.isError).toBeFalsy();
      expect((current.structuredContent as { model: string }).model).toBe('mcp-model-input/builtin-heuristic');
      expect(modernSamples).toBe(2);

      await legacyTransport.terminateSession();
      await legacy.client.close();
      await modern.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.stderr().split(SAMPLING_DEPRECATION_WARNING)).toHaveLength(2);
  });
});

describe('legacy HTTP sessions per principal (hardening item 4)', () => {
  const ALICE = 'alice-token-0123456789abcdef';
  const BOB = 'bob-token-0123456789abcdefgh';
  const tokens = new Map([
    [ALICE, 'alice'],
    [BOB, 'bob'],
  ]);

  it('one principal cannot take every session: beyond its quota 429, others still get in', async () => {
    const { front } = legacyFront({ legacy: { maxSessions: 8 }, tokens });
    const alice = { authorization: `Bearer ${ALICE}` };
    // The default quota is a quarter of --max-sessions: 2 of 8.
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await openSession(front, alice);
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await openSession(front, alice);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await messageOf(refused))?.['error']?.message).toContain('at most 2');
    const bob = await openSession(front, { authorization: `Bearer ${BOB}` });
    expect(bob.status).toBe(200);
    await bob.text();
    expect(front.sessions?.count).toBe(3);
    await front.close();
  });

  it('anonymous callers share one quota', async () => {
    const { front } = legacyFront({ legacy: { maxSessions: 8, maxSessionsPerPrincipal: 3 } });
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await openSession(front);
      expect(response.status).toBe(200);
      await response.text();
    }
    expect((await openSession(front)).status).toBe(429);
    await front.close();
  });

  it('no session outlives its lifetime, even one kept busy with traffic', async () => {
    const clock = { now: 0 };
    const { front } = legacyFront({
      legacy: { maxSessionsPerPrincipal: 1, sessionIdleSeconds: 600, sessionLifetimeSeconds: 60, now: () => clock.now },
    });
    const opened = await openSession(front);
    const id = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    for (let minute = 0; minute < 5; minute++) {
      clock.now += 10_000;
      const ping = await front.fetch(legacyRequest(list(minute + 2), id));
      expect(ping.status).toBe(200);
      await ping.text();
    }
    expect((await openSession(front)).status).toBe(429);
    clock.now += 10_000; // 60 s after it opened
    expect((await front.fetch(legacyRequest(list(9), id))).status).toBe(404);
    const next = await openSession(front);
    expect(next.status).toBe(200);
    await next.text();
    await front.close();
  });
});

describe('legacy HTTP sessions fair under pressure', () => {
  const names = ['alice', 'bob', 'erin'];
  const tokens = new Map(names.map((name) => [`${name}-token-0123456789abcdef`, name]));
  const auth = (name: string) => ({ authorization: `Bearer ${name}-token-0123456789abcdef` });

  /** Opens a session (200 expected) and gives its id. */
  async function open(front: HttpFront, headers: Record<string, string> = {}): Promise<string> {
    const response = await openSession(front, headers);
    expect(response.status).toBe(200);
    await response.text();
    return response.headers.get('mcp-session-id') as string;
  }

  async function touch(front: HttpFront, id: string, headers: Record<string, string> = {}): Promise<number> {
    const response = await front.fetch(legacyRequest(list(7), id, 'POST', headers));
    await response.text();
    return response.status;
  }

  it('a full table lets a newcomer in once a session is idle past the grace: the hoarder loses its LRU one', async () => {
    const clock = { now: 0 };
    const { front } = legacyFront({
      legacy: { maxSessions: 8, maxSessionsPerPrincipal: 5, now: () => clock.now },
      tokens,
    });
    const bobs = [await open(front, auth('bob'))];
    clock.now += 1000;
    const alices: string[] = [];
    for (let index = 0; index < 5; index++) alices.push(await open(front, auth('alice')));
    bobs.push(await open(front, auth('bob')), await open(front, auth('bob')));
    // Full, and nobody idle long enough: the newcomer waits (503), as before.
    expect((await openSession(front, auth('erin'))).status).toBe(503);

    clock.now += 31_000;
    // Traffic on all but alice's first and bob's first (bob's is the least recently used of all).
    for (const id of alices.slice(1)) expect(await touch(front, id, auth('alice'))).toBe(200);
    for (const id of bobs.slice(1)) expect(await touch(front, id, auth('bob'))).toBe(200);
    await open(front, auth('erin'));
    expect(front.sessions?.count).toBe(8);
    // Alice held the most (5 of 8): her least recently used idle session made room; bob's older one stays.
    expect(await touch(front, alices[0] as string, auth('alice'))).toBe(404);
    expect(await touch(front, bobs[0] as string, auth('bob'))).toBe(200);
    // Every session has had traffic since: the next newcomer waits again.
    expect((await openSession(front, auth('erin'))).status).toBe(503);
    await front.close();
  });

  it('without tokens on loopback, local anonymous clients share no quota; a full table still admits after the grace', async () => {
    const clock = { now: 0 };
    const { front } = legacyFront({ legacy: { maxSessions: 6, localAnonymous: true, now: () => clock.now } });
    // The default quota is a quarter of 6 (1 session): local anonymous clients are not held to it together.
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) ids.push(await open(front));
    expect((await openSession(front)).status).toBe(503);
    clock.now += 31_000;
    for (const id of ids.slice(1)) expect(await touch(front, id)).toBe(200);
    await open(front);
    expect(await touch(front, ids[0] as string)).toBe(404);
    await front.close();
  });
});
