/**
 * The stdio envelope gate and the era of a connection: the gate stands aside exactly on a
 * connection the SDK pinned to 2025-11-25 (`initialize` answered with a result), and keeps
 * answering envelope errors on every other one. Each connection is `serve --stdio` run in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createStdioEraTracker } from '../../src/legacy/stdioEra.js';
import { inProcessStdioChannel, inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { meta, type RawChannel } from '../helpers/rawChannel.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-legacy', version: '0' } },
});
const bareList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const modernList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta() } });

async function withChannel(run: (channel: RawChannel) => Promise<void>, args: string[] = []): Promise<void> {
  const channel = inProcessStdioChannel(['--root', repo.root, '--quiet', ...args]);
  try {
    await run(channel);
  } finally {
    await channel.close();
  }
}

describe('stdio: which connections the envelope gate checks', () => {
  it('after initialize, 2025-11-25 requests without _meta are served', async () => {
    await withChannel(async (channel) => {
      const opened = await channel.send(initialize(1));
      expect(opened.message?.['result']).toMatchObject({ protocolVersion: '2025-11-25' });
      await channel.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const list = await channel.send(bareList(2));
      expect(list.message?.['result']?.tools?.map((tool: { name: string }) => tool.name).sort()).toEqual([
        'ask_repo',
        'review_changes',
        'summarize_repo',
      ]);
    });
  });

  it('a discover probe, then initialize: the fallback is served as 2025-11-25', async () => {
    await withChannel(async (channel) => {
      const probe = await channel.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
      expect(probe.message?.['result']?.supportedVersions).toEqual(['2026-07-28']);
      expect((await channel.send(initialize(2))).message?.['result']).toBeDefined();
      expect((await channel.send(bareList(3))).message?.['result']?.tools).toHaveLength(3);
    });
  });

  it('on a 2026-07-28 connection, initialize is refused and requests without _meta still get -32602', async () => {
    await withChannel(async (channel) => {
      expect((await channel.send(modernList(1))).message?.['result']?.tools).toHaveLength(3);
      const late = await channel.send(initialize(2));
      expect(late.message?.['error']?.code).toBe(-32022);
      const bare = await channel.send(bareList(3));
      expect(bare.message?.['error']?.code).toBe(-32602);
    });
  });

  it('a notification without _meta before any request does not open a 2025-11-25 session', async () => {
    await withChannel(async (channel) => {
      await channel.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect((await channel.send(bareList(1))).message?.['error']?.code).toBe(-32602);
      expect((await channel.send(modernList(2))).message?.['result']?.tools).toHaveLength(3);
    });
  });

  it('a malformed initialize is refused by the gate and does not pin the connection to 2025-11-25', async () => {
    await withChannel(async (channel) => {
      const malformed = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
      expect((await channel.send(malformed)).message?.['error']?.code).toBe(-32602);
      // Served by a 2026-07-28 instance: the SDK never saw the handshake.
      const list = await channel.send(modernList(2));
      expect(list.message?.['result']).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
      expect((await channel.send(bareList(3))).message?.['error']?.code).toBe(-32602);
    });
  });

  it('an initialize whose _meta names another revision is the 2025-11-25 handshake, as the SDK takes it', async () => {
    await withChannel(async (channel) => {
      const claimed = initialize(1);
      const opened = await channel.send({
        ...claimed,
        params: { ...claimed.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
      });
      expect(opened.message?.['result']).toMatchObject({ protocolVersion: '2025-11-25' });
      // A legacy connection: the gate stands aside.
      expect((await channel.send(bareList(2))).message?.['result']?.tools).toHaveLength(3);
    });
  });

  it('with --legacy off, initialize is refused and the connection stays open for 2026-07-28', async () => {
    await withChannel(
      async (channel) => {
        expect((await channel.send(initialize(1))).message?.['error']?.code).toBe(-32022);
        expect((await channel.send(bareList(2))).message?.['error']?.code).toBe(-32602);
        expect((await channel.send(modernList(3))).message?.['result']?.tools).toHaveLength(3);
      },
      ['--legacy', 'off'],
    );
  });
});

describe('the era tracker', () => {
  it('turns legacy only when initialize is answered with a result', () => {
    const refused = createStdioEraTracker();
    expect(refused.inbound(initialize(1))).toBe('pass');
    refused.outbound({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'no' } });
    expect(refused.era).toBe('opening');
    expect(refused.inbound(bareList(2))).toBe('gate');

    const accepted = createStdioEraTracker();
    accepted.inbound(initialize(7));
    accepted.outbound({ jsonrpc: '2.0', id: 8, result: {} });
    expect(accepted.era).toBe('opening');
    accepted.outbound({ jsonrpc: '2.0', id: 7, result: { protocolVersion: '2025-11-25' } });
    expect(accepted.era).toBe('legacy');
    expect(accepted.inbound(bareList(9))).toBe('pass');
  });

  it('lets a ping through while the handshake is unanswered, and gates it otherwise', () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const fresh = createStdioEraTracker();
    expect(fresh.inbound(ping(1))).toBe('gate');
    expect(fresh.inbound(initialize(2))).toBe('pass');
    expect(fresh.inbound(ping(3))).toBe('pass');
    fresh.outbound({ jsonrpc: '2.0', id: 2, error: { code: -32022, message: 'no' } });
    expect(fresh.inbound(ping(4))).toBe('gate');
  });

  it('only an initialize result settles the era, not another answer that reuses its id', () => {
    const tracker = createStdioEraTracker();
    expect(tracker.inbound(initialize(5))).toBe('pass');
    tracker.outbound({ jsonrpc: '2.0', id: 5, result: { supportedVersions: ['2026-07-28'] } });
    expect(tracker.era).toBe('opening');
    expect(tracker.inbound(bareList(6))).toBe('gate');
  });

  it('refuses a malformed initialize only while the era is open', () => {
    const malformed = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
    const opening = createStdioEraTracker();
    expect(opening.inbound(malformed)).toEqual({ refuse: expect.objectContaining({ code: -32602 }) });
    expect(opening.era).toBe('opening');
    const modern = createStdioEraTracker();
    modern.admitted('tools/list');
    expect(modern.inbound(malformed)).toBe('pass'); // the SDK answers -32022 on a 2026-07-28 connection
  });

  it('a modern request pins the era; server/discover does not', () => {
    const tracker = createStdioEraTracker();
    tracker.admitted('server/discover');
    expect(tracker.era).toBe('opening');
    tracker.admitted('tools/list');
    expect(tracker.era).toBe('modern');
    tracker.inbound(initialize(3));
    tracker.outbound({ jsonrpc: '2.0', id: 3, result: {} });
    expect(tracker.era).toBe('modern');
    expect(tracker.inbound({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })).toBe('pass');
  });
});

describe('stdio: messages pipelined behind initialize', () => {
  it('are answered in order after the initialize answer, in the era it chose (2025-11-25)', async () => {
    const transport = inProcessStdioTransport(['--root', repo.root, '--quiet']);
    const received: any[] = [];
    let settle: () => void = () => {};
    const three = new Promise<void>((resolve) => {
      settle = resolve;
    });
    transport.onmessage = (message) => {
      received.push(message);
      if (received.length === 3) settle();
    };
    await transport.start();
    try {
      // Written back to back, before the server could answer the first.
      await Promise.all([
        transport.send(initialize(1)),
        transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        transport.send(bareList(2)),
        transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      ]);
      await Promise.race([
        three,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${JSON.stringify(received)}`)), 10_000)),
      ]);
      // The ping may be answered at once (2025-11-25 allows it); the tools/list only after initialize.
      const ids = received.map((message) => message.id);
      expect(ids.indexOf(1)).toBeLessThan(ids.indexOf(2));
      expect(received.find((message) => message.id === 1)?.result.protocolVersion).toBe('2025-11-25');
      const list = received.find((message) => message.id === 2);
      expect(list.error).toBeUndefined();
      expect(list.result.tools.map((tool: { name: string }) => tool.name)).toContain('summarize_repo');
    } finally {
      await transport.close();
    }
  });
});
