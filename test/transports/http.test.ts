/**
 * What the HTTP front owns beyond the SDK handler: Host/Origin checks, POST only, the body
 * cap, bearer-token principals and their binding of request state. In-process through
 * `fetch`, plus a real socket on 127.0.0.1.
 */
import { request as httpRequest } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { defaultAllowedHosts, defaultAllowedOrigins } from '../../src/transports/http.js';
import { listenHttp, type ListeningServer } from '../../src/transports/nodeHttp.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const discover = (id = 1) => ({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: meta() } });

function post(front: { fetch(r: Request): Promise<Response> }, body: string, headers: Record<string, string> = {}) {
  return front.fetch(mcpRequest('http://localhost/mcp', body, { 'mcp-method': 'server/discover', ...headers }));
}

describe('HTTP front', () => {
  it('refuses foreign Host and Origin headers (DNS rebinding)', async () => {
    const front = createTestFront({ root: repo.root });
    expect((await post(front, JSON.stringify(discover()), { host: 'evil.example:80' })).status).toBe(403);
    expect((await post(front, JSON.stringify(discover()), { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(front, JSON.stringify(discover()), { origin: 'http://localhost' })).status).toBe(200);
    await front.close();
  });

  it('answers only POST on the endpoint', async () => {
    const front = createTestFront({ root: repo.root });
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const response = await front.fetch(new Request('http://localhost/mcp', { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    const elsewhere = await front.fetch(new Request('http://localhost/other', { method: 'POST', body: '{}' }));
    expect(elsewhere.status).toBe(404);
    await front.close();
  });

  it('refuses an oversized body with a clear error and keeps serving', async () => {
    const front = createTestFront({ root: repo.root, maxBodyBytes: 64 * 1024 });
    const big = JSON.stringify({ ...discover(), padding: 'x'.repeat(200 * 1024) });
    const refused = await post(front, big);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('65536 bytes');
    const next = await post(front, JSON.stringify(discover(2)));
    expect(next.status).toBe(200);
    await front.close();
  });

  it('answers 406 to a POST whose Accept admits neither application/json nor text/event-stream', async () => {
    const front = createTestFront({ root: repo.root });
    for (const accept of ['text/html', 'image/png, text/plain', 'application/json;q=0, text/event-stream;q=0']) {
      const refused = await post(front, JSON.stringify(discover()), { accept });
      expect(refused.status, accept).toBe(406);
      expect(refused.headers.get('connection')).toBe('close');
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^Not Acceptable/);
    }
    for (const accept of ['application/json', 'text/event-stream', '*/*', 'text/html, application/*;q=0.5']) {
      expect((await post(front, JSON.stringify(discover()), { accept })).status, accept).toBe(200);
    }
    await front.close();
  });

  it('answers malformed JSON with -32700', async () => {
    const front = createTestFront({ root: repo.root });
    const response = await post(front, '{"jsonrpc":');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    await front.close();
  });

  describe('with a tokens file', () => {
    const tokens = new Map([
      ['alice-token-0123456789', 'alice'],
      ['bob-token-0123456789ab', 'bob'],
    ]);

    it('requires a known bearer token', async () => {
      const front = createTestFront({ root: repo.root, tokens });
      const missing = await post(front, JSON.stringify(discover()));
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect((await post(front, JSON.stringify(discover()), { authorization: 'Bearer nope' })).status).toBe(401);
      const ok = await post(front, JSON.stringify(discover()), { authorization: 'Bearer alice-token-0123456789' });
      expect(ok.status).toBe(200);
      await front.close();
    });

    it('binds request state to the principal that got it', async () => {
      const front = createTestFront({ root: repo.root, tokens });
      const channel = httpChannel(front);
      const callAs = (token: string, id: number, extra: Record<string, unknown> = {}) =>
        channel.send(
          {
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
          },
          { authorization: `Bearer ${token}` },
        );
      const first = await callAs('alice-token-0123456789', 1);
      const requestState = first.message?.['result'].requestState as string;
      const retry = {
        requestState,
        inputResponses: {
          pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' },
        },
      };
      const asBob = await callAs('bob-token-0123456789ab', 2, retry);
      expect(asBob.message?.['error']).toMatchObject({ code: -32602, message: REJECTED_STATE_MESSAGE });
      const asAlice = await callAs('alice-token-0123456789', 3, retry);
      expect(asAlice.message?.['result'].inputRequests).toHaveProperty('summary');
      await front.close();
    });
  });
});

describe('HTTP front on a real socket', () => {
  let server: ListeningServer;
  beforeAll(async () => {
    const modelInput = createModelInputServer({
      root: repo.root,
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: 'anonymous',
    });
    server = await listenHttp(
      (port) => {
        const hosts = defaultAllowedHosts('127.0.0.1', port);
        return createModelInputHttpFront(modelInput, {
          logger: silentLogger,
          allowedHosts: hosts,
          allowedOrigins: defaultAllowedOrigins(hosts),
        });
      },
      '127.0.0.1',
      0,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves discover at /mcp on 127.0.0.1', async () => {
    const response = await fetch(mcpRequest(`${server.origin}/mcp`, discover()));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { supportedVersions: string[] } }).result.supportedVersions).toEqual([
      '2026-07-28',
    ]);
  });

  it('refuses a rebinding Host on the socket', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'attacker.example', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(discover()));
    });
    expect(status).toBe(403);
  });
});

describe('the Host allow-list of serve (--allow-host)', () => {
  const machine = { hostname: 'box', addresses: [] };
  it('takes a name without a port bare (a client of a TLS proxy on 443 sends none) and on the bound port', () => {
    const hosts = defaultAllowedHosts('127.0.0.1', 3000, ['mcp.example.com'], machine);
    expect(hosts).toContain('mcp.example.com');
    expect(hosts).toContain('mcp.example.com:3000');
    expect(defaultAllowedOrigins(hosts)).toContain('https://mcp.example.com');
  });
  it('takes a name with a port as given, and nothing else of it', () => {
    const hosts = defaultAllowedHosts('127.0.0.1', 3000, ['mcp.example.com:443'], machine);
    expect(hosts).toContain('mcp.example.com:443');
    expect(hosts).not.toContain('mcp.example.com');
    expect(hosts).not.toContain('mcp.example.com:3000');
  });
  it('answers 403 to a Host it was not given, 200 to the bare name it was', async () => {
    const front = createTestFront({
      root: repo.root,
      model: 'builtin',
      front: { allowedHosts: defaultAllowedHosts('127.0.0.1', 3000, ['mcp.example.com'], machine) },
    });
    try {
      const body = JSON.stringify(discover());
      const ok = await front.fetch(
        mcpRequest('https://mcp.example.com/mcp', body, { 'mcp-method': 'server/discover', host: 'mcp.example.com' }),
      );
      expect(ok.status).toBe(200);
      const refused = await front.fetch(
        mcpRequest('https://evil.example/mcp', body, { 'mcp-method': 'server/discover', host: 'evil.example' }),
      );
      expect(refused.status).toBe(403);
    } finally {
      await front.close();
    }
  });
});
