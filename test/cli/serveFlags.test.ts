/**
 * Every `serve` flag: what it turns on can be observed on the wire. `serve` runs in-process (`main(argv, io)`) on
 * stdio and on HTTP (a real listening socket on 127.0.0.1; stopped the way the binary is, by SIGTERM, here emitted
 * on this process: the file has a process of its own), and so do the usage errors and help. End to end on a real
 * process (`dist/cli.js`): `--max-body`, where the binary keeps serving after a refused body and exits 0 on a real
 * SIGTERM (test/cli/cli.test.ts and serveFleetFlags.test.ts start the binary on HTTP too), and the legacy session
 * limits `--max-sessions` and `--session-idle`. Those two ran in-process as well, but then this process and the
 * thread that runs test/legacy both load the legacy session modules, and the coverage report, merging the two
 * processes' V8 counts, showed fewer of their branches covered than the tests run.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { localPrincipal } from '../../src/server/principals.js';
import { createKeyRing } from '../../src/state/index.js';
import { makeSampleRepo, makeTree } from '../helpers/fixtureRepo.js';
import { capturedIo, inProcessStdioChannel, runCli } from '../helpers/cliIo.js';
import { startHttpServer } from '../helpers/processes.js';
import { main } from '../../src/cli/main.js';
import { httpChannel, mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
let scratch: string;
beforeAll(async () => {
  repo = await makeSampleRepo();
  scratch = await mkdtemp(join(tmpdir(), 'mmi-flags-'));
  // serve's modules (and the flow a call runs), loaded here once: the first in-process call pays for loading and
  // transforming them, many seconds on a loaded machine, which would count against whichever test came first.
  const warm = inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--quiet']);
  expect((await warm.send(call(0))).message?.['result']?.resultType).toBe('input_required');
  await warm.close();
}, 120_000);
afterAll(async () => {
  await repo.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

/**
 * `serve --http BIND ARGS` run in-process by `main`: resolves once it has written its listening line. `stop()`
 * emits SIGTERM on this process, as the binary gets it, and resolves with what `main` returned.
 */
async function inProcessHttpServer(args: string[], bind = '127.0.0.1:0') {
  const io = capturedIo();
  const exited = main(['serve', '--http', bind, ...args], io);
  const url = await new Promise<string>((resolve, reject) => {
    // Bounded generously: on a loaded machine loading serve's modules can take many times as long as when quiet.
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s: ${io.err()}`)), 30_000);
    const look = () => {
      const match = /at (http:\/\/\S+:\d+\/mcp)/.exec(io.err());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      io.stderr.off('data', look);
      resolve(match[1]);
    };
    io.stderr.on('data', look);
    exited.then((code) => reject(new Error(`serve returned ${code}: ${io.err()}`)), reject);
  });
  return {
    url,
    stderr: () => io.err(),
    port: Number(/:(\d+)\/mcp$/.exec(url)?.[1]),
    stop: async (): Promise<number> => {
      process.emit('SIGTERM');
      return exited;
    },
  };
}

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
  afterEach(() => {
    vi.useRealTimers();
  });

  it('--state-ttl: a state older than the TTL is refused', async () => {
    // The clock moves on (2 s past a 1 s TTL) instead of the test sleeping; it runs on in real time meanwhile.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const channel = inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--state-ttl', '1', '--quiet']);
    const first = await channel.send(call(1));
    vi.setSystemTime(Date.now() + 2100);
    const late = await channel.send(
      call(2, { requestState: first.message?.['result'].requestState, inputResponses: pickAnswer }),
    );
    expect(late.message?.['error']).toMatchObject({ code: -32602, message: REJECTED_STATE_MESSAGE });
    await channel.close();
    expect(channel.stderr()).toContain('request state rejected (expired)');
  });

  it('--max-rounds: re-asking stops at the configured cap', async () => {
    const channel = inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--max-rounds', '2', '--quiet']);
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
    const channel = inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--state-keys-file', file]);
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

  it('--allow-secret-file: the named file of the deny list is offered and read, its secret still redacted', async () => {
    const stripe = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
    const tree = await makeTree({
      'README.md': '# Demo\n\nA demo service.\n',
      '.env': 'OPENAI_API_KEY=kept-out\n',
      '.env.production': `STRIPE_KEY=${stripe}\n`,
    });
    const promptOf = (reply: any, key: string): string =>
      JSON.stringify(reply.message?.['result'].inputRequests[key].params.messages);
    try {
      const offered: Record<string, string> = {};
      for (const allow of [[], ['--allow-secret-file', '.env.production']]) {
        const channel = inProcessStdioChannel(['--root', tree.root, '--model', 'host', '--quiet', ...allow]);
        const first = await channel.send(call(1));
        offered[allow.length === 0 ? 'default' : 'allowed'] = promptOf(first, 'pick_files');
        if (allow.length > 0) {
          const pick = {
            ...pickAnswer.pick_files,
            content: { type: 'text', text: '["README.md", ".env.production"]' },
          };
          const second = await channel.send(
            call(2, { requestState: first.message?.['result'].requestState, inputResponses: { pick_files: pick } }),
          );
          const summary = promptOf(second, 'summary');
          expect(summary).toContain('.env.production');
          expect(summary).toContain('STRIPE_KEY=[redacted: Stripe key]');
          expect(summary).not.toContain(stripe);
        }
        await channel.close();
      }
      expect(offered['default']).not.toContain('.env.production');
      expect(offered['allowed']).toContain('.env.production');
      for (const prompt of Object.values(offered)) expect(prompt).not.toMatch(/\.env\b(?!\.production)/);
    } finally {
      await tree.cleanup();
    }
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

  it('without state keys, --model host over HTTP warns that retries must come back to this process', async () => {
    const server = await inProcessHttpServer(['--root', repo.root, '--model', 'host,builtin']);
    expect(server.stderr()).toContain('no state keys configured');
    expect(server.stderr()).toContain('MRTR retries must come back to this process');
    await server.stop();
  });

  it('--tokens-file: only known bearer tokens are served', async () => {
    const file = join(scratch, 'tokens.json');
    await writeFile(file, JSON.stringify({ 'a-long-enough-token-1234': 'alice' }));
    const server = await inProcessHttpServer(['--root', repo.root, '--tokens-file', file]);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    expect((await fetch(mcpRequest(server.url, list))).status).toBe(401);
    const ok = await fetch(mcpRequest(server.url, list, { authorization: 'Bearer a-long-enough-token-1234' }));
    expect(ok.status).toBe(200);
    await server.stop();
  });

  it('--allow-remote binds a wildcard address that answers on loopback; --allow-host adds a Host', async () => {
    const server = await inProcessHttpServer(
      ['--root', repo.root, '--allow-remote', '--allow-host', 'mcp.internal.example'],
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

describe('legacy adapter flags', () => {
  /** A 2025-11-25 client's handshake, or a request on its session. */
  const legacyPost = (url: string, message: unknown, sessionId?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sessionId !== undefined && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(message),
    });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flags', version: '0' } },
  };

  it.each([
    [['serve', '--stdio', '--legacy', 'maybe'], "--legacy expects on or off, got 'maybe'"],
    [['serve', '--stdio', '--max-samples-per-call', '0'], '--max-samples-per-call must be an integer from 1 to 100'],
    [['serve', '--stdio', '--max-sessions', '5'], '--max-sessions applies to --http only'],
    [['serve', '--stdio', '--session-idle', '60'], '--session-idle applies to --http only'],
    [['serve', '--http', '0', '--max-sessions', '0'], '--max-sessions must be an integer from 1 to 10000'],
    [['serve', '--http', '0', '--session-idle', 'soon'], '--session-idle must be an integer from 1 to 86400'],
    [
      ['serve', '--stdio', '--legacy', 'off', '--max-samples-per-call', '3'],
      '--max-samples-per-call needs --legacy on',
    ],
  ])('%j is a usage error', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help documents the legacy flags', async () => {
    const { stdout } = await runCli(['serve', '--help']);
    for (const flag of ['--legacy on|off', '--max-samples-per-call N', '--max-sessions N', '--session-idle SECONDS']) {
      expect(stdout).toContain(flag);
    }
  });

  it('--legacy off: initialize over HTTP is refused with -32022 and no session', async () => {
    const server = await inProcessHttpServer(['--root', repo.root, '--legacy', 'off']);
    const response = await legacyPost(server.url, initialize);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32022);
    await server.stop();
  });

  it('without tokens on loopback, anonymous local clients share no per-principal quota', async () => {
    // --max-sessions 8: one principal may hold 2; three local clients without tokens each get a session.
    const server = await inProcessHttpServer(['--root', repo.root, '--max-sessions', '8']);
    for (let client = 0; client < 3; client++) {
      const response = await legacyPost(server.url, initialize);
      expect(response.status).toBe(200);
      await response.text();
    }
    await server.stop();
  });

  it('--max-sessions: one session more than allowed gets 503', async () => {
    const server = await startHttpServer(['--root', repo.root, '--max-sessions', '1']);
    const first = await legacyPost(server.url, initialize);
    expect(first.status).toBe(200);
    expect(first.headers.get('mcp-session-id')).not.toBeNull();
    await first.text();
    const second = await legacyPost(server.url, initialize);
    expect(second.status).toBe(503);
    await second.text();
    await server.stop();
  });

  it('--session-idle: an abandoned session is closed (making room), and then gets 404', async () => {
    const server = await startHttpServer(['--root', repo.root, '--max-sessions', '1', '--session-idle', '1']);
    const opened = await legacyPost(server.url, initialize);
    const abandoned = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    // Refused while the first session is fresh; admitted once it has idled out. Bounded: 40 looks.
    let next: Response | undefined;
    for (let look = 0; look < 40; look++) {
      next = await legacyPost(server.url, initialize);
      await next.text();
      if (next.status !== 503) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(next?.status).toBe(200);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const gone = await legacyPost(server.url, list, abandoned);
    expect(gone.status).toBe(404);
    await gone.text();
    await server.stop();
  });
});
