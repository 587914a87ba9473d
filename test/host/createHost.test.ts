/**
 * The host runtime against real servers: ours over HTTP (in-process) and stdio, and a 2025-11-25
 * server on the 1.x SDK that asks with live sampling requests. Each peer runs once as a real process the host
 * starts on stdio (`serve --stdio` of the built CLI; test/fixtures/host/legacySamplingServer.mjs); the other
 * cases talk to the same servers in-process (the HTTP front's `fetch`, the SDK's in-memory transport).
 */
import { fileURLToPath } from 'node:url';

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost } from '../../src/host/createHost.js';
import { isHostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import type { Approver } from '../../src/host/types.js';
import { BUILTIN_MODEL_NAME, createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { CLI } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { createLegacySampler } from '../fixtures/host/legacySampler.mjs';
import { capturedAuditLog, recordingApprover } from './hostFixtures.js';

const LEGACY_SERVER = fileURLToPath(new URL('../fixtures/host/legacySamplingServer.mjs', import.meta.url));

/** The legacy sampler in-process: a connect target over the SDK's in-memory transport, and the server to close. */
async function inMemoryLegacySampler(options?: Parameters<typeof createLegacySampler>[0]) {
  const server = createLegacySampler(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { server, target: { kind: 'transport' as const, transport: clientSide, key: 'memory:legacy-sampler' } };
}

function privateLimiter() {
  return createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 });
}

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

describe('createHost against our server', () => {
  it('runs summarize_repo over HTTP: two rounds, each reviewed, audited without text', async () => {
    const front = createTestFront({ root: repo.root });
    const approver = recordingApprover();
    const captured = await capturedAuditLog();
    const audit = captured.audit;
    const host = createHost({
      models: [{ id: 'builtin', model: createBuiltinModel(), ...TIER_ATTRIBUTES.balanced }],
      approver,
      audit,
      rateLimiter: privateLimiter(),
    });
    const connection = await host.connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    try {
      expect(connection.era).toBe('modern');
      expect(connection.server.name).toBe('mcp-model-input');
      const outcome = await connection.callTool('summarize_repo', {});
      expect(outcome.result.isError).not.toBe(true);
      expect(outcome.rounds).toBe(2);
      const summary = outcome.result.structuredContent as { files?: unknown[] };
      expect(Array.isArray(summary.files)).toBe(true);
      expect(approver.rounds.map((round) => [round.round, round.requests.map((request) => request.key)])).toEqual([
        [1, ['pick_files']],
        [2, ['summary']],
      ]);
      expect(approver.rounds[0]?.server).toEqual(expect.objectContaining({ name: 'mcp-model-input' }));
    } finally {
      await connection.close();
      await audit.close();
      await front.close();
    }
    const lines = captured.lines();
    expect(lines.map((line) => [line['key'], line['decision']])).toEqual([
      ['pick_files', 'approved'],
      ['pick_files', 'fulfilled'],
      ['summary', 'approved'],
      ['summary', 'fulfilled'],
    ]);
    expect(lines[1]).toEqual(
      expect.objectContaining({ server: 'mcp-model-input', tool: 'summarize_repo', round: 1, model: 'builtin' }),
    );
    // The prompts name the repository's files; the audit never carries prompt or answer text.
    expect(captured.text()).not.toContain('README');
    expect(captured.text()).not.toContain('systemPrompt');
  });

  it('runs summarize_repo over stdio, discovering first; tools/list is served from the cache', async () => {
    const host = createHost({
      models: [{ id: 'builtin', model: createBuiltinModel(), ...TIER_ATTRIBUTES.balanced }],
      approver: recordingApprover(),
      rateLimiter: privateLimiter(),
      trace: (line) => traced.push(line),
    });
    const traced: string[] = [];
    const connection = await host.connect({
      kind: 'stdio',
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--root', repo.root, '--model', 'host', '--quiet'],
    });
    try {
      const discovery = await connection.discover();
      expect(discovery.era).toBe('modern');
      expect(discovery.protocolVersion).toBe('2026-07-28');
      expect(discovery.tools.map((tool) => tool.name).sort()).toEqual(['ask_repo', 'review_changes', 'summarize_repo']);
      await connection.listTools();
      expect(traced.filter((line) => line.includes('tools/list'))).toHaveLength(1);
      const outcome = await connection.callTool('summarize_repo', { maxFiles: 2 });
      expect(outcome.result.isError).not.toBe(true);
      expect(outcome.rounds).toBe(2);
    } finally {
      await connection.close();
    }
    // The trace names methods and keys, never text.
    expect(traced.some((line) => line.includes('inputResponses=[pick_files]'))).toBe(true);
    expect(traced.join('\n')).not.toContain('README');
  });

  it('answers a server that needs no model without a round', async () => {
    const front = createTestFront({ root: repo.root, model: 'builtin' });
    const model = createScriptedModel({});
    const host = createHost({
      models: [{ id: 's', model, ...TIER_ATTRIBUTES.balanced }],
      rateLimiter: privateLimiter(),
    });
    const connection = await host.connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    const outcome = await connection.callTool('summarize_repo', {});
    await connection.close();
    await front.close();
    expect(outcome.rounds).toBe(0);
    expect(model.calls).toHaveLength(0);
  });
});

describe('createHost against a 2025-11-25 server (live sampling)', () => {
  it('falls back to initialize and answers live sampling through the same policies', async () => {
    const approver = recordingApprover();
    const model = createScriptedModel({ 'sampling/createMessage': ['src/a.ts', 'src/b.ts'] });
    const host = createHost({
      models: [{ id: 'scripted', model, ...TIER_ATTRIBUTES.balanced }],
      approver,
      rateLimiter: privateLimiter(),
    });
    const connection = await host.connect({
      kind: 'stdio',
      command: process.execPath,
      args: [LEGACY_SERVER],
      env: { ...(process.env as Record<string, string>), LEGACY_ASKS: '2' },
    });
    try {
      expect(connection.era).toBe('legacy');
      const outcome = await connection.callTool('ask', {});
      expect(outcome.result.content).toEqual([{ type: 'text', text: 'answers: src/a.ts | src/b.ts' }]);
      expect(outcome.rounds).toBe(2);
      expect(approver.rounds.map((round) => round.round)).toEqual([1, 2]);
    } finally {
      await connection.close();
    }
  });

  it('refuses covert context on the live path and reports the host reason', async () => {
    const model = createScriptedModel({ 'sampling/createMessage': 'x' });
    const host = createHost({
      models: [{ id: 'scripted', model, ...TIER_ATTRIBUTES.balanced }],
      approver: recordingApprover(),
      rateLimiter: privateLimiter(),
    });
    const legacy = await inMemoryLegacySampler({ includeContext: 'allServers' });
    const connection = await host.connect(legacy.target);
    let code: string | undefined;
    try {
      await connection.callTool('ask', {});
    } catch (error) {
      if (!isHostError(error)) throw error;
      code = error.code;
    } finally {
      await connection.close();
      await legacy.server.close();
    }
    expect(code).toBe('covert_context');
    expect(model.calls).toHaveLength(0);
  });
});

describe('createHost against a 2025-11-25 server: concurrent calls', () => {
  /** Two tools on a 1.x server, in memory: each waits, then asks the client's model once, naming itself. */
  async function twoToolServer(delays: Record<string, number>) {
    const server = new McpServer({ name: 'legacy-pair', version: '1.0.0' });
    for (const [name, delay] of Object.entries(delays)) {
      server.registerTool(name, { description: name }, async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        const answer = await server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `asked by ${name}` } }],
          maxTokens: 10,
        });
        return { content: [{ type: 'text', text: `${name}: ${(answer.content as { text: string }).text}` }] };
      });
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    return { server, transport: clientSide };
  }

  it('answers live requests a call sends at once one after another, each its own round', async () => {
    const server = new McpServer({ name: 'legacy-parallel', version: '1.0.0' });
    server.registerTool('both', { description: 'asks twice at once' }, async () => {
      const ask = (n: number) =>
        server.server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: `question ${n}` } }],
          maxTokens: 10,
        });
      const answers = await Promise.all([ask(1), ask(2)]);
      const texts = answers.map((answer) => (answer.content as { text: string }).text);
      return { content: [{ type: 'text', text: texts.join(' | ') }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const approver = recordingApprover();
    const host = createHost({
      models: [
        {
          id: 's',
          model: createScriptedModel({ 'sampling/createMessage': ['one', 'two'] }),
          ...TIER_ATTRIBUTES.balanced,
        },
      ],
      approver,
      rateLimiter: privateLimiter(),
    });
    const connection = await host.connect({ kind: 'transport', transport: clientSide, key: 'memory:legacy-parallel' });
    try {
      const outcome = await connection.callTool('both');
      expect(outcome.result.content).toEqual([{ type: 'text', text: 'one | two' }]);
      expect(outcome.rounds).toBe(2);
      expect(approver.rounds.map((round) => round.round)).toEqual([1, 2]);
    } finally {
      await connection.close();
      await server.close();
    }
  });

  it.each([
    ['the first call asks last', { alpha: 60, beta: 5 }],
    ['the second call asks last', { alpha: 5, beta: 60 }],
  ])('reviews each live request as the call that made it (%s)', async (_name, delays) => {
    const { server, transport } = await twoToolServer(delays);
    const approver = recordingApprover();
    const host = createHost({
      models: [
        { id: 's', model: createScriptedModel({ 'sampling/createMessage': 'ok' }), ...TIER_ATTRIBUTES.balanced },
      ],
      approver,
      rateLimiter: privateLimiter(),
    });
    const connection = await host.connect({ kind: 'transport', transport, key: 'memory:legacy-pair' });
    try {
      expect(connection.era).toBe('legacy');
      const [alpha, beta] = await Promise.all([connection.callTool('alpha'), connection.callTool('beta')]);
      expect(alpha.result.content).toEqual([{ type: 'text', text: 'alpha: ok' }]);
      expect(beta.result.content).toEqual([{ type: 'text', text: 'beta: ok' }]);
      expect([alpha.rounds, beta.rounds]).toEqual([1, 1]);
      const reviewed = approver.rounds.map((round) => {
        const content = round.requests[0]?.params.messages[0]?.content as { text: string };
        return [round.tool, content.text];
      });
      expect(reviewed).toEqual([
        ['alpha', 'asked by alpha'],
        ['beta', 'asked by beta'],
      ]);
    } finally {
      await connection.close();
      await server.close();
    }
  });

  it('answers roots/list outside a tool call from the configured roots (no model, no round)', async () => {
    const host = createHost({
      roots: [{ uri: 'file:///work/project', name: 'project' }],
      rateLimiter: privateLimiter(),
    });
    const legacy = await inMemoryLegacySampler();
    const connection = await host.connect(legacy.target);
    try {
      expect(connection.era).toBe('legacy');
      let text = 'not asked';
      for (let attempt = 0; attempt < 50 && text === 'not asked'; attempt++) {
        const outcome = await connection.callTool('roots_seen', {});
        text = (outcome.result.content[0] as { text: string }).text;
        if (text === 'not asked') await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(JSON.parse(text)).toEqual([{ uri: 'file:///work/project', name: 'project' }]);
    } finally {
      await connection.close();
      await legacy.server.close();
    }
  });
});

describe('a declined sampling round (onDeny)', () => {
  const denying: Approver = { review: () => Promise.resolve({ kind: 'deny', reason: 'the user said no' }) };
  const hostWith = (onDeny?: 'stop' | 'fallback') =>
    createHost({
      models: [
        {
          id: 'scripted',
          model: createScriptedModel({ 'sampling/createMessage': '["README.md"]' }),
          ...TIER_ATTRIBUTES.balanced,
        },
      ],
      approver: denying,
      rateLimiter: privateLimiter(),
      ...(onDeny !== undefined && { onDeny }),
    });
  const httpTarget = (model: string) => {
    const front = createTestFront({ root: repo.root, model });
    return {
      front,
      target: {
        kind: 'http' as const,
        url: 'http://localhost/mcp',
        fetch: (u: string | URL, i?: RequestInit) => front.fetch(new Request(u, i)),
      },
    };
  };
  // `serve --stdio` in-process as the host's transport (the host spawning it is the stdio test above).
  const stdioTarget = (model: string) => ({
    kind: 'transport' as const,
    transport: inProcessStdioTransport(['--root', repo.root, '--model', model, '--quiet']),
    key: `stdio:in-process:${model}`,
  });
  const stopCode = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (!isHostError(error)) throw error;
      return { code: error.code, rpcCode: error.detail.rpcCode };
    }
    return undefined;
  };

  it.each(['http', 'stdio'] as const)('stop (default) over %s: approval_denied ends the call', async (kind) => {
    const { front, target } =
      kind === 'http' ? httpTarget('host,builtin') : { front: undefined, target: stdioTarget('host,builtin') };
    const connection = await hostWith().connect(target);
    try {
      expect(await stopCode(connection.callTool('summarize_repo', {}))).toEqual({
        code: 'approval_denied',
        rpcCode: undefined,
      });
    } finally {
      await connection.close();
      await front?.close();
    }
  });

  it.each(['http', 'stdio'] as const)(
    'fallback over %s: the call is made again without sampling, and host,builtin serves it',
    async (kind) => {
      const { front, target } =
        kind === 'http' ? httpTarget('host,builtin') : { front: undefined, target: stdioTarget('host,builtin') };
      const connection = await hostWith('fallback').connect(target);
      try {
        const outcome = await connection.callTool('summarize_repo', {});
        expect(outcome.result.isError).not.toBe(true);
        // No round: the retry declared no sampling, so the server's own model answered inline.
        expect(outcome.rounds).toBe(0);
        expect(outcome.declined).toEqual({
          reason: expect.stringContaining('the user said no'),
          how: 'retried_without_sampling',
        });
        expect((outcome.result.structuredContent as { model: string }).model).toBe(BUILTIN_MODEL_NAME);
      } finally {
        await connection.close();
        await front?.close();
      }
    },
  );

  it('fallback against --model host alone: the retry gets -32021 (the server has no model of its own)', async () => {
    const { front, target } = httpTarget('host');
    const connection = await hostWith('fallback').connect(target);
    try {
      expect(await stopCode(connection.callTool('summarize_repo', {}))).toEqual({
        code: 'protocol_error',
        rpcCode: -32021,
      });
    } finally {
      await connection.close();
      await front.close();
    }
  });

  it('on a 2025-11-25 server the refusal (-1) reaches it: stop throws, fallback returns what the server made of it', async () => {
    const servers: Array<{ close(): Promise<void> }> = [];
    const connect = async (onDeny: 'stop' | 'fallback') => {
      const legacy = await inMemoryLegacySampler();
      servers.push(legacy.server);
      return hostWith(onDeny).connect(legacy.target);
    };
    const stopping = await connect('stop');
    try {
      expect((await stopCode(stopping.callTool('ask', {})))?.code).toBe('approval_denied');
    } finally {
      await stopping.close();
    }
    const continuing = await connect('fallback');
    try {
      const outcome = await continuing.callTool('ask', {});
      // This server has no model of its own: its tool failed on the refusal, and says so.
      expect(outcome.result.isError).toBe(true);
      expect(outcome.declined).toEqual({
        reason: expect.stringContaining('the user said no'),
        how: 'server_continued',
      });
    } finally {
      await continuing.close();
      for (const server of servers) await server.close();
    }
  });

  it('refuses an onDeny that is neither stop nor fallback', () => {
    expect(() => createHost({ onDeny: 'retry' as never })).toThrow(/onDeny must be 'stop' or 'fallback'/);
  });
});
