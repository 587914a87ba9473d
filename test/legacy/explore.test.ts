/**
 * Explore mode for a 2025-11-25 client: the same tool loop over live `sampling/createMessage` requests that
 * offer the tools, within the per-call sample limit; a client that did not declare `sampling.tools` at
 * `initialize` gets an isError result naming it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { silentLogger } from '../../src/logger.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { answerOf, type ScriptedTurn } from '../helpers/toolModel.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

async function legacyExplore(
  script: (params: Record<string, any>, turn: number) => ScriptedTurn,
  options: { tools?: boolean; maxSamplesPerCall?: number } = {},
) {
  const server = createModelInputServer({
    root: repo.root,
    models: parseModelSpec('host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    legacy: options.maxSamplesPerCall === undefined ? {} : { maxSamplesPerCall: options.maxSamplesPerCall },
  });
  const front = createModelInputHttpFront(server, {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
  });
  const sampling = options.tools === false ? {} : { tools: {} };
  const client = new Client({ name: 'legacy-explorer', version: '1.0.0' }, { capabilities: { sampling } });
  const samples: Array<Record<string, any>> = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    samples.push(request.params as Record<string, any>);
    return answerOf(
      script(request.params as Record<string, any>, samples.length - 1),
      samples.length - 1,
      'legacy-model',
    ) as any;
  });
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: (url, init) => front.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  try {
    const outcome = await client
      .callTool({ name: 'summarize_repo', arguments: { mode: 'explore' } })
      .then((result) => ({ result: result as Record<string, any> }))
      .catch((error: unknown) => ({ error: error as { code?: number; message: string } }));
    return { ...outcome, samples };
  } finally {
    await client.close();
    await front.close();
  }
}

describe('explore for a 2025-11-25 client', () => {
  it('runs the loop over live sampling requests that offer the tools', async () => {
    const run = await legacyExplore((_params, turn) =>
      turn === 0
        ? { calls: [{ name: 'read_file', input: { path: 'README.md' } }] }
        : { summary: 'Sample Widget, summarized by the legacy host.' },
    );
    expect('error' in run ? run.error : undefined).toBeUndefined();
    expect(run.samples).toHaveLength(2);
    expect(run.samples[0]!['tools'].map((tool: { name: string }) => tool.name)).toEqual([
      'list_directory',
      'read_file',
      'search',
    ]);
    const results = run.samples[1]!['messages'].at(-1).content;
    expect(results[0]).toMatchObject({ type: 'tool_result', toolUseId: 't0_0' });
    const out = (run as { result: Record<string, any> }).result['structuredContent'];
    expect(out.mode).toBe('explore');
    expect(out.model).toBe('legacy-model');
    expect(out.exploration.calls[0]).toMatchObject({ tool: 'read_file', target: 'README.md:1+200' });
  });

  it('keeps the rounds within the per-call sample limit: the last sample disables tools', async () => {
    let n = 0;
    const run = await legacyExplore(
      (params) =>
        params['toolChoice']?.mode === 'none'
          ? { summary: 'Done within the limit.' }
          : { calls: [{ name: 'search', input: { pattern: `p${n++}` } }] },
      { maxSamplesPerCall: 3 },
    );
    expect(run.samples).toHaveLength(3);
    expect(run.samples[2]!['toolChoice']).toEqual({ mode: 'none' });
    const out = (run as { result: Record<string, any> }).result['structuredContent'];
    expect(out.exploration).toMatchObject({ endedBy: 'rounds', rounds: 3 });
  });

  it('answers hostile calls with isError tool_results over live sampling too', async () => {
    const run = await legacyExplore((_params, turn) =>
      turn === 0
        ? {
            calls: [
              { name: 'read_file', input: { path: '../../etc/passwd' } },
              { name: 'read_file', input: { path: 'escape.txt' } },
              { name: 'read_file', input: { path: 'secret.env' } },
            ],
          }
        : { summary: 'Nothing readable there.' },
    );
    const results = run.samples[1]!['messages'].at(-1).content as Array<Record<string, any>>;
    expect(results.map((result) => result['isError'])).toEqual([true, true, true]);
    expect(JSON.stringify(run.samples)).not.toContain('outside the root');
    expect(JSON.stringify(run.samples)).not.toContain('do-not-read');
  });

  it('a tool_use id used twice is an unusable answer: -32602, no further sample', async () => {
    const run = await legacyExplore(() => ({
      calls: [
        { name: 'list_directory', input: {}, id: 'same' },
        { name: 'list_directory', input: { path: 'src' }, id: 'same' },
      ],
    }));
    expect(run.samples).toHaveLength(1);
    expect('error' in run && run.error.message).toContain('used twice');
  });

  it('answers a client that did not declare sampling.tools at initialize with an isError result', async () => {
    const run = await legacyExplore(() => ({ summary: 'never asked' }), { tools: false });
    expect(run.samples).toHaveLength(0);
    const result = (run as { result: Record<string, any> }).result;
    expect(result['isError']).toBe(true);
    expect(JSON.stringify(result['content'])).toContain('sampling.tools');
  });
});
