/**
 * The wire contract of the core server, point by point, over stdio (a real process) and
 * HTTP (the front's in-process fetch): raw JSON-RPC for what the SDK client cannot express.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { meta, type RawChannel } from '../helpers/rawChannel.js';
import { openChannel } from '../helpers/servers.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
let repo: Awaited<ReturnType<typeof makeSampleRepo>>;

beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

describe.each(['stdio', 'http'] as const)('wire contract over %s', (kind) => {
  let channel: RawChannel;
  let nextId = 1;
  const id = () => nextId++;

  beforeAll(() => {
    channel = openChannel(kind, repo.root);
  });
  afterAll(async () => {
    await channel.close();
  });

  const expectStatus = (reply: { status?: number }, status: number) => {
    if (kind === 'http') expect(reply.status).toBe(status);
  };

  it('1. server/discover is complete, versioned, cacheable and identified', async () => {
    const reply = await channel.send({
      jsonrpc: '2.0',
      id: id(),
      method: 'server/discover',
      params: { _meta: meta() },
    });
    expectStatus(reply, 200);
    const result = reply.message?.['result'];
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      cacheScope: 'public',
    });
    // `serve` (stdio) also advertises the tasks extension; the in-process front here runs without tasks.
    expect(Object.keys(result.capabilities).filter((key) => key !== 'extensions')).toEqual(['tools']);
    expect(result.capabilities.extensions ?? {}).toEqual(
      kind === 'stdio' ? { 'io.modelcontextprotocol/tasks': {} } : {},
    );
    expect(Number.isInteger(result.ttlMs) && result.ttlMs > 0).toBe(true);
    expect(result._meta[SERVER_INFO]).toMatchObject({ name: 'mcp-model-input', version: expect.any(String) });
  });

  it('2. tools/list is deterministic, cacheable and describes summarize_repo exactly', async () => {
    const first = await channel.send({ jsonrpc: '2.0', id: id(), method: 'tools/list', params: { _meta: meta() } });
    const result = first.message?.['result'];
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(result._meta[SERVER_INFO].name).toBe('mcp-model-input');
    const tool = result.tools.find((t: { name: string }) => t.name === 'summarize_repo');
    expect(result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'ask_repo',
      'review_changes',
      'summarize_repo',
    ]);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.inputSchema.required ?? []).toEqual([]);
    expect(tool.inputSchema.properties.audience.type).toBe('string');
    expect(tool.inputSchema.properties.path.type).toBe('string');
    expect(tool.inputSchema.properties.maxFiles).toMatchObject({ type: 'integer', minimum: 1, maximum: 8, default: 3 });
    expect(tool.outputSchema.type).toBe('object');
    expect(tool.outputSchema.required).toEqual(expect.arrayContaining(['picked', 'summary']));

    const pristine = JSON.stringify(result.tools);
    tool.name = 'mutated';
    tool.inputSchema.properties.audience.type = 'number';
    const second = await channel.send({ jsonrpc: '2.0', id: id(), method: 'tools/list', params: { _meta: meta() } });
    expect(JSON.stringify(second.message?.['result'].tools)).toBe(pristine);
  });

  it('3. missing _meta, version or capabilities is -32602; an unsupported version is -32022', async () => {
    const cases: unknown[] = [
      {},
      { _meta: {} },
      { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': 20260728 } },
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    ];
    for (const params of cases) {
      const reply = await channel.send({ jsonrpc: '2.0', id: id(), method: 'tools/list', params });
      expectStatus(reply, 400);
      expect(reply.message?.['error']?.code).toBe(-32602);
    }
    const noParams = await channel.send({ jsonrpc: '2.0', id: id(), method: 'tools/list' });
    expect(noParams.message?.['error']?.code).toBe(-32602);

    // The version check runs on every request, including after the connection is in use.
    const requestId = id();
    const unsupported = await channel.send(
      {
        jsonrpc: '2.0',
        id: requestId,
        method: 'tools/list',
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expectStatus(unsupported, 400);
    expect(unsupported.message).toMatchObject({ id: requestId, error: { code: -32022 } });
    expect(unsupported.message?.['error'].data).toStrictEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });
  });

  it('4. summarize_repo without the sampling capability is -32021 naming sampling', async () => {
    const reply = await channel.send({
      jsonrpc: '2.0',
      id: id(),
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: meta({ elicitation: {} }) },
    });
    expectStatus(reply, 400);
    expect(reply.message?.['error']?.code).toBe(-32021);
    expect(reply.message?.['error']?.data?.requiredCapabilities).toStrictEqual({ sampling: {} });
  });

  it('9. input_required only ever comes from tools/call', async () => {
    for (const method of ['server/discover', 'tools/list']) {
      const reply = await channel.send({ jsonrpc: '2.0', id: id(), method, params: { _meta: meta({ sampling: {} }) } });
      expect(reply.message?.['result']?.resultType).toBe('complete');
    }
  });

  it('10. a notification gets no JSON-RPC response (202 and an empty body on HTTP)', async () => {
    const reply = await channel.notify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 999, _meta: meta() },
    });
    if (kind === 'http') {
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    } else {
      expect(reply.message).toBeUndefined();
    }
    const unknown = await channel.notify({ jsonrpc: '2.0', method: 'notifications/whatever', params: {} });
    expect(unknown.message).toBeUndefined();
  });

  it('answers malformed messages with id null and keeps serving', async () => {
    const cases: Array<[string, number]> = [
      [JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: meta() } }), -32600],
      [JSON.stringify([{ jsonrpc: '2.0', id: 77, method: 'tools/list', params: { _meta: meta() } }]), -32600],
    ];
    cases.push(['this is not json', -32700], [JSON.stringify({ jsonrpc: '2.0', id: true, method: 'x' }), -32600]);
    for (const [line, code] of cases) {
      const reply = await channel.sendRaw(line);
      expect(reply.message?.['id'], line).toBeNull();
      expect(reply.message?.['error']?.code, line).toBe(code);
    }
    const after = await channel.send({ jsonrpc: '2.0', id: id(), method: 'tools/list', params: { _meta: meta() } });
    expect(after.message?.['result']?.tools).toHaveLength(3);
  });

  it('11. an unknown method is -32601 (404 over HTTP)', async () => {
    const reply = await channel.send({ jsonrpc: '2.0', id: id(), method: 'no/such', params: { _meta: meta() } });
    expectStatus(reply, 404);
    expect(reply.message?.['error']?.code).toBe(-32601);
  });
});
