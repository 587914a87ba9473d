/**
 * The examples run: the short host (a real process, as a user would start it; it starts the built CLI with
 * `--model host`), the short server (a real process the host runtime starts), and the server mounted in an
 * existing Hono app (in-process) and in a Node `http` server (a real socket), each behind bearer-token principals.
 */
import { execFile } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApp } from '../../examples/embedding/hono.js';
import { createAppServer } from '../../examples/embedding/nodeHttp.js';
import { createApprover, createHost, parseApprovalMode, parseHostModelSpec } from '../../src/entries/host.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { meta } from '../helpers/rawChannel.js';

const run = promisify(execFile);
const HOST_EXAMPLE = join(process.cwd(), 'examples', 'host.ts'); // vitest runs from the repository root
const SERVER_EXAMPLE = join(process.cwd(), 'examples', 'server.ts');
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const summarize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'summarize_repo', arguments: { maxFiles: 2 }, _meta: meta() },
};

function post(url: string, body: unknown, token?: string): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'summarize_repo',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
}

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('examples', () => {
  it("host.ts serves --model host on stdio, answers its two rounds with the host's model, and exits", async () => {
    // execFile resolves only when the process has exited: a host that never closes its connection fails here.
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', HOST_EXAMPLE, repo.root], {
      timeout: 110_000,
    });
    expect(stdout).toContain('README.md');
    expect(stdout).toMatch(/\(2 rounds answered by the host's model, \d+ tokens\)/);
    // The server has no model of its own: every answer is the host's, and the audit log says so.
    const audit = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { key: string; decision: string; model?: string });
    expect(audit.filter((entry) => entry.decision === 'fulfilled').map((entry) => [entry.key, entry.model])).toEqual([
      ['pick_files', 'builtin'],
      ['summary', 'builtin'],
    ]);
  }, 120_000); // two processes (tsx, then the server it starts): slow on a busy machine

  it("server.ts serves summarize_repo on stdio; with sampling declared, its steps ask the host's model", async () => {
    const host = createHost({
      models: await parseHostModelSpec('builtin'),
      approver: await createApprover(parseApprovalMode('auto')),
    });
    const connection = await host.connect({
      kind: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', SERVER_EXAMPLE, repo.root],
    });
    try {
      const { result, rounds } = await connection.callTool('summarize_repo', { maxFiles: 3 });
      expect(JSON.stringify(result.content)).toContain('README.md');
      expect(rounds).toBe(2);
    } finally {
      await connection.close();
    }
  }, 120_000);

  it('embedding/hono.ts: the server answers on /mcp of a Hono app, for known bearer tokens only', async () => {
    const app = createApp({ root: repo.root, tokens: new Map([['t-alice', 'alice']]), port: 8787 });
    expect(await (await app.fetch(new Request('http://127.0.0.1:8787/'))).text()).toBe('your app');
    const anonymous = await app.fetch(post('http://127.0.0.1:8787/mcp', summarize));
    expect(anonymous.status).toBe(401);
    const wrong = await app.fetch(post('http://127.0.0.1:8787/mcp', summarize, 't-mallory'));
    expect(wrong.status).toBe(401);
    const answered = await app.fetch(post('http://127.0.0.1:8787/mcp', summarize, 't-alice'));
    const body = (await answered.json()) as { result: { resultType: string; structuredContent: { files: unknown[] } } };
    // No sampling declared: `host,builtin` falls back to the built-in model, in one call.
    expect(body.result.resultType).toBe('complete');
    expect(body.result.structuredContent.files.length).toBeGreaterThan(0);
  });

  it('embedding/nodeHttp.ts: the server answers on /mcp of a Node http server, on a real socket', async () => {
    const port = await freePort();
    const server = createAppServer({ root: repo.root, tokens: new Map([['t-bob', 'bob']]), port });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      expect(await (await fetch(`${base}/`)).text()).toBe('your app\n');
      expect((await fetch(post(`${base}/mcp`, summarize))).status).toBe(401);
      const answered = await fetch(post(`${base}/mcp`, summarize, 't-bob'));
      const body = (await answered.json()) as { result: { structuredContent: { files: unknown[] } } };
      expect(body.result.structuredContent.files.length).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
