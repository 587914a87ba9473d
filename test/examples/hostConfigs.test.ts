/**
 * The host configuration snippets in examples/hosts/ (shown in the README) start a server that works:
 * each stdio entry is run as written — `npx mcp-model-input` replaced by this build's CLI (a real process for
 * the first, `main` in-process for the others), the placeholder root by a fixture — and the official client
 * lists and calls the tool; the remote entry's header carries a bearer token the HTTP server accepts.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer } from '../helpers/processes.js';
import { CLI } from '../helpers/rawChannel.js';

const HOSTS = join(process.cwd(), 'examples', 'hosts'); // vitest runs from the repository root
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

interface StdioEntry {
  type?: string;
  command: string;
  args: string[];
}

async function entry(file: string, list: 'mcpServers' | 'servers'): Promise<StdioEntry> {
  const config = JSON.parse(await readFile(join(HOSTS, file), 'utf8')) as Record<string, Record<string, StdioEntry>>;
  const server = config[list]?.['mcp-model-input'];
  if (server === undefined) throw new Error(`${file}: no ${list}.mcp-model-input entry`);
  return server;
}

function client(): Client {
  return new Client({ name: 'config-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

describe('host configuration snippets', () => {
  // The first entry runs as a real process (this build's CLI in place of `npx mcp-model-input`); the others,
  // whose arguments are what differs, run the same command line in-process.
  it.each([
    ['claude_desktop_config.json', 'mcpServers', 'process'],
    ['vscode.mcp.json', 'servers', 'in-process'],
    ['cursor.mcp.json', 'mcpServers', 'in-process'],
  ] as const)('%s (%s) starts a stdio server that lists and runs summarize_repo (%s)', async (file, list, how) => {
    const server = await entry(file, list);
    expect(server.command).toBe('npx');
    expect(server.args.slice(0, 4)).toEqual(['-y', 'mcp-model-input', 'serve', '--stdio']);
    if (server.type !== undefined) expect(server.type).toBe('stdio');
    const args = server.args
      .slice(2)
      .map((arg) => (arg === '${workspaceFolder}' || arg === '/path/to/repo' ? repo.root : arg));
    const mcp = client();
    expect(args.slice(0, 2)).toEqual(['serve', '--stdio']);
    await mcp.connect(
      how === 'process'
        ? new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], stderr: 'ignore' })
        : inProcessStdioTransport(args.slice(2)),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toContain('summarize_repo');
      // This client declares no sampling: `host,builtin` answers with the built-in model.
      const result = await mcp.callTool({ name: 'summarize_repo', arguments: { maxFiles: 2 } });
      expect(result.isError).not.toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('vscode.remote.mcp.json reaches an HTTP server with its bearer-token header', async () => {
    const config = JSON.parse(await readFile(join(HOSTS, 'vscode.remote.mcp.json'), 'utf8')) as {
      servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const remote = Object.values(config.servers)[0];
    expect(remote?.type).toBe('http');
    const token = 'a-test-token-of-enough-length';
    const tokensFile = join(repo.root, '..', `tokens-${process.pid}.json`);
    await writeFile(tokensFile, JSON.stringify({ [token]: 'alice' }));
    const server = await startHttpServer(['--root', repo.root, '--tokens-file', tokensFile]);
    try {
      const headers = Object.fromEntries(
        Object.entries(remote?.headers ?? {}).map(([name, value]) => [name, value.replace(/\$\{input:[^}]+\}/, token)]),
      );
      const mcp = client();
      await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
      expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('summarize_repo');
      await mcp.close();
      const without = client();
      await expect(without.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
    } finally {
      await server.stop();
      await rm(tokensFile, { force: true });
    }
  });
});
