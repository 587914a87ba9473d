/**
 * `registerModelTool` on the official SDK's own McpServer (createMcpHandler), with the SDK's own client: on
 * 2026-07-28 the handler answers input_required with the kit's sealed state and the client's automatic round
 * handling completes the call; on 2025-11-25 the SDK's legacy path sends the sampling request live; a
 * server-owned model answers inline.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import explainFile from '../../examples/explainFile.js';
import { createModelKit, registerModelTool } from '../../src/entries/tool.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

function sdkHandler(models: string) {
  const kit = createModelKit({ models, root: repo.root });
  return createMcpHandler(() => {
    const server = new McpServer({ name: 'author-server', version: '1.0.0' });
    registerModelTool(server, explainFile, kit);
    return server;
  });
}

/** A 2025-11-25 session over a connected transport (the SDK's legacy path sends live requests on it). */
async function connectSession(models: string, sampling: boolean) {
  const server = new McpServer({ name: 'author-server', version: '1.0.0' });
  registerModelTool(server, explainFile, createModelKit({ models, root: repo.root }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'sdk-legacy-client', version: '1.0.0' },
    { capabilities: sampling ? { sampling: {} } : {}, versionNegotiation: { mode: 'legacy' } },
  );
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'from the client model' },
      model: 'client-model',
    }));
  }
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

async function connect(models: string, sampling: boolean) {
  const handler = sdkHandler(models);
  const states: unknown[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: async (url, init) => {
      const response = await handler.fetch(new Request(url, init));
      const text = await response.clone().text();
      const state = /"requestState":"([^"]+)"/.exec(text)?.[1];
      if (state !== undefined) states.push(state);
      return response;
    },
  });
  const client = new Client(
    { name: 'sdk-client', version: '1.0.0' },
    {
      capabilities: sampling ? { sampling: {} } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'from the client model' },
      model: 'client-model',
    }));
  }
  await client.connect(transport);
  return { client, states, close: async () => (await client.close(), await handler.close()) };
}

const callExplain = (client: Client) => client.callTool({ name: 'explain_file', arguments: { path: 'src/index.ts' } });
const textOf = (result: Awaited<ReturnType<typeof callExplain>>) =>
  (result.content as Array<{ type: string; text: string }>)[0]?.text;

describe('registerModelTool on the SDK McpServer', () => {
  it('2026-07-28: input_required with the kit sealed state, completed by the SDK client', async () => {
    const peer = await connect('host', true);
    try {
      const result = await callExplain(peer.client);
      expect(textOf(result)).toBe('from the client model\n\n(answered by: host)');
      expect(peer.states).toHaveLength(1);
      expect(String(peer.states[0])).toMatch(/^mmi1\./);
    } finally {
      await peer.close();
    }
  });

  it('a server-owned source answers inline (no round, no state)', async () => {
    const peer = await connect('builtin', true);
    try {
      expect(textOf(await callExplain(peer.client))).toContain('(answered by: builtin)');
      expect(peer.states).toEqual([]);
    } finally {
      await peer.close();
    }
  });

  it('2025-11-25: the SDK legacy path serves the round as live sampling', async () => {
    const peer = await connectSession('host', true);
    try {
      expect(textOf(await callExplain(peer.client))).toBe('from the client model\n\n(answered by: live)');
    } finally {
      await peer.close();
    }
  });

  it('2025-11-25 without sampling on host,builtin: the built-in model answers, and says why', async () => {
    const peer = await connectSession('host,builtin', false);
    try {
      const result = await callExplain(peer.client);
      expect(textOf(result)).toContain('(answered by: builtin)');
      expect(JSON.stringify(result.content)).toContain('did not declare the sampling capability at initialize');
    } finally {
      await peer.close();
    }
  });

  it('2026-07-28: a tampered or replayed requestState is a JSON-RPC error, not an isError result', async () => {
    const handler = sdkHandler('host');
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    };
    const post = async (params: Record<string, unknown>) => {
      const response = await handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'explain_file',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'explain_file', arguments: { path: 'src/index.ts' }, _meta: envelope, ...params },
          }),
        }),
      );
      const text = await response.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
      return JSON.parse(json) as { result?: Record<string, any>; error?: { code: number; message: string } };
    };
    try {
      const first = await post({});
      const state = first.result?.['requestState'] as string;
      expect(first.result?.['resultType']).toBe('input_required');
      const key = Object.keys(first.result?.['inputRequests'] ?? {})[0] as string;
      const answer = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
      const tampered = `${state.slice(0, -4)}${state.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      const refused = await post({ requestState: tampered, inputResponses: { [key]: answer } });
      expect(refused.result).toBeUndefined();
      expect(refused.error?.code).toBe(-32602);
      // The genuine state still completes the call once; its replay is refused the same way.
      expect((await post({ requestState: state, inputResponses: { [key]: answer } })).result?.['isError']).not.toBe(
        true,
      );
      expect((await post({ requestState: state, inputResponses: { [key]: answer } })).error?.code).toBe(-32602);
    } finally {
      await handler.close();
    }
  });
});
