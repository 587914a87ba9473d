/**
 * Wire checks the conformance suite does not make, against a real `serve --http` process on a
 * real port, with hand-written HTTP/1.1 on a TCP socket where the bytes matter.
 */
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer, type RunningHttpServer } from '../helpers/processes.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
let server: RunningHttpServer;

beforeAll(async () => {
  repo = await makeSampleRepo();
  const tokens = join(repo.outside.root, 'tokens.json');
  await writeFile(tokens, JSON.stringify({ [ALICE]: 'alice', [BOB]: 'bob' }));
  server = await startHttpServer(['--root', repo.root, '--model', 'host', '--tokens-file', tokens]);
});
afterAll(async () => {
  await server.stop();
  await repo.cleanup();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Decodes an HTTP/1.1 chunked body. */
function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** One HTTP/1.1 exchange written by hand on a TCP socket (Connection: close). */
function rawHttp(port: number, body: string | Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // A server that refuses a large body may answer and close while the body is still being
    // written (EPIPE / ECONNRESET on our side): what it sent before closing is the response.
    socket.on('error', (error) => {
      if (chunks.length === 0) reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const parsed = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const payload = rest.join('\r\n\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: parsed,
        body: parsed['transfer-encoding'] === 'chunked' ? dechunk(payload) : payload,
      });
    });
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const allHeaders: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      authorization: `Bearer ${ALICE}`,
      'content-length': String(bytes.length),
      connection: 'close',
      ...headers,
    };
    const head = Object.entries(allHeaders)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`POST /mcp HTTP/1.1\r\n${head}\r\n\r\n`);
    // Not end(): a half-closed socket may be dropped before a slow handler answers.
    socket.write(bytes);
  });
}

describe('HTTP on a real socket', () => {
  it('answers a notification with 202 and an empty body', async () => {
    const response = await rawHttp(
      server.port,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: meta() } }),
      { 'mcp-method': 'notifications/cancelled' },
    );
    expect(response.status).toBe(202);
    expect(response.body).toBe('');
  });

  it('rejects id null and batches with -32600', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: meta() } },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }],
    ]) {
      const response = await rawHttp(server.port, JSON.stringify(body), { 'mcp-method': 'tools/list' });
      expect(response.status).toBe(400);
      const message = JSON.parse(response.body) as { id: unknown; error: { code: number } };
      expect(message.id).toBeNull();
      expect(message.error.code).toBe(-32600);
    }
  });

  it('refuses a 2 MiB body with a clear error and serves the next request', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: meta(), padding: 'x'.repeat(2 * 1024 * 1024) },
    });
    const refused = await rawHttp(server.port, big, { 'mcp-method': 'tools/list' });
    expect(refused.status).toBe(413);
    expect((JSON.parse(refused.body) as { error: { message: string } }).error.message).toContain('1048576 bytes');
    const next = await rawHttp(
      server.port,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } }),
      { 'mcp-method': 'tools/list' },
    );
    expect(next.status).toBe(200);
  });

  it('answers 500 concurrent tools/list requests, each with its own id', async () => {
    const replies = await Promise.all(
      Array.from({ length: 500 }, async (_, id) => {
        const response = await fetch(
          mcpRequest(
            server.url,
            { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta() } },
            {
              authorization: `Bearer ${ALICE}`,
            },
          ),
        );
        return {
          status: response.status,
          body: (await response.json()) as { id: number; result: { tools: unknown[] } },
        };
      }),
    );
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(replies.map((reply) => reply.body.id)).toEqual(Array.from({ length: 500 }, (_, id) => id));
    expect(replies.every((reply) => reply.body.result.tools.length === 3)).toBe(true);
  });

  it('rejects a request state replayed by another principal', async () => {
    const call = (id: number, token: string, extra: Record<string, unknown> = {}) =>
      rawHttp(
        server.port,
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
        }),
        { authorization: `Bearer ${token}`, 'mcp-method': 'tools/call', 'mcp-name': 'summarize_repo' },
      );
    const first = JSON.parse((await call(1, ALICE)).body) as { result: { requestState: string } };
    const retry = {
      requestState: first.result.requestState,
      inputResponses: {
        pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' },
      },
    };
    const replay = await call(2, BOB, retry);
    expect(JSON.parse(replay.body)).toMatchObject({
      id: 2,
      error: { code: -32602, message: REJECTED_STATE_MESSAGE },
    });
    const own = JSON.parse((await call(3, ALICE, retry)).body) as { result: { inputRequests: object } };
    expect(own.result.inputRequests).toHaveProperty('summary');
  });
});
