/**
 * Errors that say what to do, met by real clients: a client without sampling (-32021, logged once
 * per client, hinted at start-up), unknown tool arguments, `inputResponses` without `requestState`,
 * envelope errors (-32022 naming `initialize`, a missing `_meta` naming its keys, -32020 in the
 * SDK's `data` shape), the fixed state-rejection message, and the state-keys warning only where
 * the plan mints state.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createEphemeralKeyRing, EPHEMERAL_KEY_WARNING } from '../../src/state/index.js';
import { inProcessStdioChannel, inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, mcpRequest, meta } from '../helpers/rawChannel.js';
import { capturingLogger, createTestFront, openChannel } from '../helpers/servers.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as { code?: number; message?: string; data?: any },
  );

function v2Client(name: string, capabilities: Record<string, unknown> = {}) {
  return new ClientV2(
    { name, version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
}

describe('a client that cannot sample, against --model host', () => {
  it('gets -32021 saying it needs a client with sampling; the server logs it once per client', async () => {
    const logger = capturingLogger();
    const front = createTestFront({ root: repo.root, model: 'host', logger });
    const connect = async (name: string) => {
      const client = v2Client(name);
      await client.connect(
        new HttpV2(new URL('http://localhost/mcp'), { fetch: (u, i) => front.fetch(new Request(u, i)) }),
      );
      return client;
    };
    const inspector = await connect('inspector-cli');
    for (let i = 0; i < 3; i++) {
      const error = await settle(inspector.callTool({ name: 'summarize_repo', arguments: {} }));
      expect(error?.code).toBe(-32021);
      expect(error?.data).toEqual({ requiredCapabilities: { sampling: {} } });
      expect(error?.message).toContain('use a client that supports sampling');
      expect(error?.message).toContain('server-side model');
    }
    const other = await connect('another-client');
    expect((await settle(other.callTool({ name: 'summarize_repo', arguments: {} })))?.code).toBe(-32021);
    const notices = logger.lines.filter((line) => line.includes('does not declare sampling'));
    expect(notices).toHaveLength(2);
    expect(notices[0]).toContain("client 'inspector-cli'");
    expect(notices[0]).toContain('--model host,builtin');
    expect(notices[1]).toContain("client 'another-client'");
    await inspector.close();
    await other.close();
    await front.close();
  });

  it('over stdio the same -32021 reaches the official client', async () => {
    const client = v2Client('stdio-inspector');
    await client.connect(inProcessStdioTransport(['--model', 'host', '--root', repo.root, '--quiet']));
    const error = await settle(client.callTool({ name: 'summarize_repo', arguments: {} }));
    expect(error?.code).toBe(-32021);
    expect(error?.message).toContain('use a client that supports sampling');
    await client.close();
  });

  // 2025-11-25 has no -32021: a client that declared no sampling at initialize gets an isError result, which
  // tells its user the same thing; the server logs it once per client as on 2026-07-28.
  it.each(['http', 'stdio'] as const)(
    'a 2025-11-25 client over %s gets a tool error saying what to do; logged once per client',
    async (kind) => {
      const logger = capturingLogger();
      const front = kind === 'http' ? createTestFront({ root: repo.root, model: 'host', logger }) : undefined;
      const stdio =
        kind === 'stdio' ? inProcessStdioTransport(['--model', 'host', '--root', repo.root, '--quiet']) : undefined;
      const client = new ClientV1({ name: 'inspector-cli-v1', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        stdio ??
          new HttpV1(new URL('http://localhost/mcp'), {
            fetch: (u, i) => (front as NonNullable<typeof front>).fetch(new Request(u, i)),
          }),
      );
      for (let i = 0; i < 3; i++) {
        const result = (await client.callTool({ name: 'summarize_repo', arguments: {} })) as {
          isError?: boolean;
          content: { type: string; text?: string }[];
        };
        expect(result.isError).toBe(true);
        const text = result.content.map((block) => block.text ?? '').join('\n');
        expect(text).toContain('did not declare the sampling capability at initialize');
        expect(text).toContain('use a client that supports sampling');
        expect(text).toContain('server-side model');
      }
      await client.close();
      await front?.close();
      const lines = stdio === undefined ? logger.lines : stdio.stderr().split('\n');
      const notices = lines.filter((line) => line.includes('does not declare sampling'));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain("client 'inspector-cli-v1'");
      expect(notices[0]).toContain('a tool error on 2025-11-25');
      expect(notices[0]).toContain('--model host,builtin');
    },
  );
});

describe('serve start-up lines', () => {
  const startUp = async (model: string, env: Record<string, string> = {}) => {
    const channel = inProcessStdioChannel(['--root', repo.root, '--model', model], env);
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    await channel.close();
    return channel.stderr();
  };

  it('--model host hints at host,builtin; no state-key warning on stdio (every retry comes back here)', async () => {
    const hostOnly = await startUp('host');
    expect(hostOnly).toContain('serves only clients that declare sampling');
    expect(hostOnly).toContain('--model host,builtin');
    expect(hostOnly).not.toContain(EPHEMERAL_KEY_WARNING);

    const withFallback = await startUp('host,builtin');
    expect(withFallback).not.toContain('serves only clients that declare sampling');
    expect(withFallback).not.toContain('no state keys configured');

    const builtin = await startUp('builtin');
    expect(builtin).not.toContain('no state keys configured');
    expect(builtin).not.toContain('serves only clients');
    expect(builtin).toContain('serving');

    // A provider alone mints no state either (the key is only read, never used: no request is made).
    const provider = await startUp('openai:m', { OPENAI_API_KEY: 'sk-test-unused' });
    expect(provider).not.toContain('no state keys configured');
    expect(provider).not.toContain('serves only clients');
    expect(provider).toContain('serving');
  });
});

describe('unknown tool arguments', () => {
  it('the published inputSchema says additionalProperties: false', async () => {
    const front = createTestFront({ root: repo.root });
    const client = v2Client('schema-reader', { sampling: {} });
    await client.connect(
      new HttpV2(new URL('http://localhost/mcp'), { fetch: (u, i) => front.fetch(new Request(u, i)) }),
    );
    const [tool] = (await client.listTools()).tools;
    expect(tool?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    await client.close();
    await front.close();
  });

  it.each([
    ['v2', 'http'],
    ['v2', 'stdio'],
    ['v1', 'http'],
    ['v1', 'stdio'],
  ] as const)(
    'the %s client over %s gets -32602 naming the key, the known ones and a close match',
    async (era, kind) => {
      const front = kind === 'http' ? createTestFront({ root: repo.root }) : undefined;
      const transportFetch = (u: string | URL, i?: RequestInit) =>
        (front as NonNullable<typeof front>).fetch(new Request(u, i));
      const stdio = () => inProcessStdioTransport(['--model', 'host', '--root', repo.root, '--quiet']);
      let call: (args: Record<string, unknown>) => Promise<unknown>;
      let close: () => Promise<void>;
      if (era === 'v2') {
        const client = v2Client('args-v2', { sampling: {} });
        await client.connect(
          front === undefined ? stdio() : new HttpV2(new URL('http://localhost/mcp'), { fetch: transportFetch }),
        );
        call = (args) => client.callTool({ name: 'summarize_repo', arguments: args });
        close = () => client.close();
      } else {
        const client = new ClientV1({ name: 'args-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
        await client.connect(
          front === undefined ? stdio() : new HttpV1(new URL('http://localhost/mcp'), { fetch: transportFetch }),
        );
        call = (args) => client.callTool({ name: 'summarize_repo', arguments: args });
        close = () => client.close();
      }
      const error = await settle(call({ max_files: 2 }));
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain("unknown argument 'max_files' (did you mean 'maxFiles'?)");
      expect(error?.message).toContain('known arguments: audience, path, maxFiles');
      expect(error?.data).toEqual({
        unknown: ['max_files'],
        known: ['audience', 'path', 'maxFiles', 'mode'],
        didYouMean: { max_files: 'maxFiles' },
      });
      const far = await settle(call({ verbose: true, audience: 'developer' }));
      expect(far?.message).toContain("unknown argument 'verbose'; known arguments:");
      expect(far?.data.didYouMean).toEqual({});
      await close();
      await front?.close();
    },
  );
});

describe.each(['stdio', 'http'] as const)('envelope and state errors over %s', (kind) => {
  let channel: ReturnType<typeof openChannel>;
  let id = 1;
  beforeAll(() => {
    channel =
      kind === 'stdio'
        ? inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--quiet'])
        : openChannel(kind, repo.root);
  });
  afterAll(async () => {
    await channel.close();
  });
  const call = (params: Record<string, unknown>, headers: Record<string, string> = {}) =>
    channel.send(
      { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'summarize_repo', arguments: {}, ...params } },
      headers,
    );
  const pick = { pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' } };

  it('inputResponses without requestState: -32602 saying so, not a silent new call', async () => {
    const reply = await call({ _meta: meta({ sampling: {} }), inputResponses: pick });
    expect(reply.message?.['error']?.code).toBe(-32602);
    expect(reply.message?.['error']?.message).toContain('inputResponses without requestState');
  });

  it('_meta naming 2025-11-25: -32022 saying such clients open with initialize', async () => {
    // Over HTTP the version header agrees with the body (else -32020 answers first).
    const reply = await call(
      { _meta: { ...meta({ sampling: {} }), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(reply.message?.['error']).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
    expect(reply.message?.['error'].message).toContain('opens with initialize on the same endpoint');
  });

  it('a missing _meta: the message names the required keys', async () => {
    const reply = await call({});
    expect(reply.message?.['error']?.code).toBe(-32602);
    expect(reply.message?.['error']?.message).toContain('io.modelcontextprotocol/protocolVersion');
    expect(reply.message?.['error']?.message).toContain('io.modelcontextprotocol/clientCapabilities');
  });

  it('a rejected state: one fixed message that says to start again without requestState', async () => {
    const reply = await call({ _meta: meta({ sampling: {} }), requestState: 'forged', inputResponses: pick });
    expect(reply.message?.['error']).toMatchObject({ code: -32602, message: REJECTED_STATE_MESSAGE });
    expect(REJECTED_STATE_MESSAGE).toContain('start the call again without requestState');
  });
});

describe('HTTP-only envelope errors', () => {
  it('-32020 carries the SDK data shape: mismatch.header and mismatch.body', async () => {
    const front = createTestFront({ root: repo.root });
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
    const response = await front.fetch(
      mcpRequest('http://localhost/mcp', body, { 'mcp-protocol-version': '2026-09-01' }),
    );
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: { code: number; message: string; data: any } }).error;
    expect(error.code).toBe(-32020);
    expect(error.message).toMatch(/^Bad Request: the request headers and body disagree: /);
    expect(error.data).toEqual({
      mismatch: {
        header: '2026-09-01',
        body: 'the body envelope names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2026-09-01',
      },
    });
    await front.close();
  });

  it('with legacy serving off, -32022 for 2025-11-25 says it is not served here', async () => {
    const server = createModelInputServer({
      root: repo.root,
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: 'anonymous',
      legacy: false,
    });
    const front = createModelInputHttpFront(server, {
      logger: silentLogger,
      allowedHosts: ['localhost'],
      allowedOrigins: ['http://localhost'],
    });
    const channel = httpChannel(front);
    const reply = await channel.send(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(reply.message?.['error']?.code).toBe(-32022);
    expect(reply.message?.['error']?.message).toContain('does not serve 2025-11-25 clients');
    await channel.close();
  });
});
