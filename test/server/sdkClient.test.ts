/**
 * The official SDK client (2.4, pinned to 2026-07-28) as the peer: discover, list and the
 * full summarize_repo flow with its automatic input_required handling, over stdio and HTTP (in-process
 * through the front's fetch). On stdio the pinned client runs a real `serve --stdio` process, the `auto`
 * one the same command in-process.
 */
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { CLI } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

interface Recorded {
  id: unknown;
  method: string;
  requestState?: string;
  inputKeys: string[];
  returnedState?: string;
}

/** Records every outgoing request and the requestState of its result, on any transport. */
function recording(inner: Transport, recorded: Recorded[]): Transport {
  const byId = new Map<unknown, Recorded>();
  const send = inner.send.bind(inner);
  inner.send = async (message, options) => {
    const body = message as { id?: unknown; method?: string; params?: Record<string, any> };
    if (typeof body.method === 'string' && body.id !== undefined) {
      const entry: Recorded = {
        id: body.id,
        method: body.method,
        ...(typeof body.params?.['requestState'] === 'string' && { requestState: body.params['requestState'] }),
        inputKeys: Object.keys(body.params?.['inputResponses'] ?? {}),
      };
      recorded.push(entry);
      byId.set(body.id, entry);
    }
    return send(message, options);
  };
  // Wrap whatever handler the client installs, whenever it installs it.
  let handler: Transport['onmessage'];
  Object.defineProperty(inner, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = (message, extra) => {
        const reply = message as { id?: unknown; result?: { requestState?: unknown } };
        const entry = byId.get(reply.id);
        if (entry !== undefined && typeof reply.result?.requestState === 'string') {
          entry.returnedState = reply.result.requestState;
        }
        next?.(message, extra);
      };
    },
  });
  return inner;
}

function connectClient(
  kind: 'stdio' | 'http',
  negotiation: 'pin' | 'auto',
  recorded: Recorded[],
): { client: Client; transport: Transport } {
  let transport: Transport;
  if (kind === 'stdio' && negotiation === 'auto') {
    transport = inProcessStdioTransport(['--model', 'host', '--root', repo.root, '--quiet']);
  } else if (kind === 'stdio') {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--model', 'host', '--root', repo.root, '--quiet'],
      stderr: 'pipe',
    });
  } else {
    const front = createTestFront({ root: repo.root });
    transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
  }
  transport = recording(transport, recorded);
  const client = new Client(
    { name: 'sdk-peer-test', version: '1.0.0' },
    {
      capabilities: { sampling: {} },
      // `auto`: the client's own probe (server/discover first, initialize as the fallback).
      versionNegotiation: { mode: negotiation === 'auto' ? 'auto' : { pin: '2026-07-28' } },
    },
  );
  const model = createBuiltinModel();
  client.setRequestHandler('sampling/createMessage', (request, ctx) =>
    model.complete({ key: String(ctx.mcpReq.id), params: request.params }),
  );
  return { client, transport };
}

describe.each([
  ['stdio', 'pin'],
  ['http', 'pin'],
  ['stdio', 'auto'],
  ['http', 'auto'],
] as const)('official SDK client over %s (negotiation: %s)', (kind, negotiation) => {
  const recorded: Recorded[] = [];
  let client: Client;

  beforeAll(async () => {
    const connected = connectClient(kind, negotiation, recorded);
    client = connected.client;
    await client.connect(connected.transport);
  });
  afterAll(async () => {
    await client.close();
  });

  it('discovers and lists the tool', async () => {
    if (negotiation === 'auto' && kind === 'http') {
      // The client's own probe ran on the connection before anything else.
      expect(recorded[0]?.method).toBe('server/discover');
    }
    expect(client.getDiscoverResult()?.supportedVersions).toEqual(['2026-07-28']);
    const discover = await client.discover();
    expect(discover.supportedVersions).toEqual(['2026-07-28']);
    // `serve` (stdio) also advertises the tasks extension; the in-process HTTP front here runs without tasks.
    expect(discover.capabilities).toEqual({
      tools: {},
      ...(kind === 'stdio' && { extensions: { 'io.modelcontextprotocol/tasks': {} } }),
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_repo', 'review_changes', 'summarize_repo']);
  });

  it('runs the three-round flow to a complete, structured result', async () => {
    const result = await client.callTool({ name: 'summarize_repo', arguments: { audience: 'developer' } });
    expect(result.isError).toBe(false);
    const structured = result.structuredContent as { picked: string[]; summary: string; model: string };
    expect(structured.picked).toContain('README.md');
    expect(structured.picked.length).toBeLessThanOrEqual(3);
    expect(structured.summary).toContain('sample-widget');
    expect(structured.model).toBe('mcp-model-input/builtin-heuristic');

    {
      const calls = recorded.filter((r) => r.method === 'tools/call');
      expect(calls).toHaveLength(3);
      expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      expect(calls[0]?.requestState).toBeUndefined();
      expect(calls[1]?.inputKeys).toEqual(['pick_files']);
      expect(calls[2]?.inputKeys).toEqual(['summary']);
      expect(calls[1]?.requestState).toBe(calls[0]?.returnedState);
      expect(calls[2]?.requestState).toBe(calls[1]?.returnedState);
      expect(calls[2]?.returnedState).toBeUndefined();
    }
  });
});
