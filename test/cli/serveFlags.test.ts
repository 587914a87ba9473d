/**
 * Every `serve` flag, end to end on a real process: what it turns on can be observed on the wire.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { localPrincipal } from '../../src/server/principals.js';
import { createKeyRing } from '../../src/state/index.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer } from '../helpers/processes.js';
import { httpChannel, mcpRequest, meta, stdioChannel } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
let scratch: string;
beforeAll(async () => {
  repo = await makeSampleRepo();
  scratch = await mkdtemp(join(tmpdir(), 'mmi-flags-'));
});
afterAll(async () => {
  await repo.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

const KEY = Buffer.alloc(32, 7);
const KEYS = `flags1:${KEY.toString('base64')}`;
const call = (id: number, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
});
const pickAnswer = {
  pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' },
};

describe('serve flags on stdio', () => {
  it('--state-ttl: a state older than the TTL is refused', async () => {
    const channel = stdioChannel(['--root', repo.root, '--model', 'host', '--state-ttl', '1', '--quiet']);
    const first = await channel.send(call(1));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await channel.send(
      call(2, { requestState: first.message?.['result'].requestState, inputResponses: pickAnswer }),
    );
    expect(late.message?.['error']).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    await channel.close();
    expect(channel.stderr()).toContain('request state rejected (expired)');
  });

  it('--max-rounds: re-asking stops at the configured cap', async () => {
    const channel = stdioChannel(['--root', repo.root, '--model', 'host', '--max-rounds', '2', '--quiet']);
    const first = await channel.send(call(1));
    const again = await channel.send(call(2, { requestState: first.message?.['result'].requestState }));
    expect(again.message?.['result'].resultType).toBe('input_required');
    const over = await channel.send(call(3, { requestState: again.message?.['result'].requestState }));
    expect(over.message?.['error']?.code).toBe(-32602);
    await channel.close();
  });

  it('--state-keys-file: the first key mints; stdio state is bound to the local user', async () => {
    const file = join(scratch, 'keys');
    await writeFile(file, `# rotation: new first\n${KEYS}\nold:${Buffer.alloc(32, 1).toString('base64')}\n`);
    const channel = stdioChannel(['--root', repo.root, '--model', 'host', '--state-keys-file', file]);
    const first = await channel.send(call(1));
    const requestState = first.message?.['result'].requestState as string;
    expect(requestState.startsWith('mmi1.flags1.')).toBe(true);
    await channel.close();
    expect(channel.stderr()).not.toContain('random per-process key');

    // The same keys over HTTP, where the caller is `anonymous`: another principal, so refused.
    const front = createTestFront({ root: repo.root, keyRing: createKeyRing([{ kid: 'flags1', key: KEY }]) });
    const http = httpChannel(front);
    const replay = await http.send(call(2, { requestState, inputResponses: pickAnswer }));
    expect(replay.message?.['error']?.code).toBe(-32602);
    await http.close();
    expect(localPrincipal()).toBe(`local:${userInfo().username}`);
  });
});

describe('serve flags on HTTP', () => {
  it('--max-body: a larger body gets 413 and the server keeps serving', async () => {
    const server = await startHttpServer(['--root', repo.root, '--max-body', '2048']);
    const big = await fetch(mcpRequest(server.url, { ...call(1), padding: 'x'.repeat(4096) }));
    expect(big.status).toBe(413);
    const next = await fetch(
      mcpRequest(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } }),
    );
    expect(next.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it('--tokens-file: only known bearer tokens are served', async () => {
    const file = join(scratch, 'tokens.json');
    await writeFile(file, JSON.stringify({ 'a-long-enough-token-1234': 'alice' }));
    const server = await startHttpServer(['--root', repo.root, '--tokens-file', file]);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    expect((await fetch(mcpRequest(server.url, list))).status).toBe(401);
    const ok = await fetch(mcpRequest(server.url, list, { authorization: 'Bearer a-long-enough-token-1234' }));
    expect(ok.status).toBe(200);
    await server.stop();
  });

  it('--allow-remote binds a wildcard address that answers on loopback; --allow-host adds a Host', async () => {
    const server = await startHttpServer(
      ['--root', repo.root, '--allow-remote', '--allow-host', 'mcp.internal.example'],
      {},
      '0.0.0.0:0',
    );
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    const loopback = `http://127.0.0.1:${server.port}/mcp`;
    expect((await fetch(mcpRequest(loopback, list))).status).toBe(200);
    expect((await fetch(mcpRequest(`http://localhost:${server.port}/mcp`, list))).status).toBe(200);
    const named = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/mcp',
            method: 'POST',
            headers: {
              host: `mcp.internal.example:${server.port}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'tools/list',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(list));
      }, reject);
    });
    expect(named).toBe(200);
    await server.stop();
  });
});
