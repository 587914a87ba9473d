/**
 * A stdio server that answers with one message larger than the host reads (10 MiB): the call ends
 * with an error that says so, not a bare "Connection closed". The server is written here, as a
 * script the host spawns.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost } from '../../src/host/createHost.js';
import { isHostError } from '../../src/host/hostError.js';

/** Speaks 2026-07-28 (`server/discover`) or, with `legacy`, 2025-11-25 (`initialize`); `tools/call` gets 11 MiB. */
const SERVER = `
import { createInterface } from 'node:readline';
const legacy = process.argv[2] === 'legacy';
const tool = { name: 'big', inputSchema: { type: 'object' } };
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'server/discover') {
    if (legacy) return send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    return send({ jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} }, ttlMs: 60000, cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'oversize', version: '1' } } } });
  }
  if (method === 'initialize') {
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} },
      serverInfo: { name: 'oversize', version: '1' } } });
  }
  const modern = legacy ? {} : { resultType: 'complete' };
  if (method === 'tools/list') {
    return send({ jsonrpc: '2.0', id, result: { ...modern, tools: [tool], ...(!legacy && { ttlMs: 60000, cacheScope: 'public' }) } });
  }
  if (method === 'tools/call') {
    const text = 'x'.repeat(11 * 1024 * 1024);
    return send({ jsonrpc: '2.0', id, result: { ...modern, content: [{ type: 'text', text }] } });
  }
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
});
`;

let dir: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mmi-oversize-'));
  script = join(dir, 'oversize.mjs');
  await writeFile(script, SERVER);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('an oversize stdio message', () => {
  for (const revision of ['modern', 'legacy'] as const) {
    it(`is named as such (${revision})`, async () => {
      const host = createHost();
      const connection = await host.connect({
        kind: 'stdio',
        command: process.execPath,
        args: [script, revision],
        stderr: 'ignore',
      });
      expect(connection.era).toBe(revision);
      const error = await connection.callTool('big', {}).catch((caught: unknown) => caught);
      await connection.close();
      expect(isHostError(error) && error.code).toBe('protocol_error');
      expect((error as Error).message).toBe(
        'big: the server sent a message over 10 MiB, the most the host reads from a stdio server; the connection was closed',
      );
    });
  }
});
