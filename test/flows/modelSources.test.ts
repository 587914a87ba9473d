/**
 * The model-source seam: the same summarize_repo flow completes in one call on a
 * server-owned model, and a preference list picks the host only when the request declares
 * sampling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ModelInputError } from '../../src/errors.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const call = (capabilities: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'summarize_repo', arguments: { maxFiles: 2 }, _meta: meta(capabilities) },
});

describe('model sources', () => {
  it('a server-owned model completes in one call, with no round and no state', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'builtin' }));
    const reply = await channel.send(call({}));
    const result = reply.message?.['result'];
    expect(result.resultType).toBe('complete');
    expect(result.requestState).toBeUndefined();
    expect(result.structuredContent.model).toBe('mcp-model-input/builtin-heuristic');
    expect(result.structuredContent.picked).toContain('README.md');
    await channel.close();
  });

  it('host,builtin uses the host when sampling is declared and the server model otherwise', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host,builtin' }));
    expect((await channel.send(call({ sampling: {} }))).message?.['result'].resultType).toBe('input_required');
    expect((await channel.send(call({}))).message?.['result'].resultType).toBe('complete');
    await channel.close();
  });

  it('host,builtin without sampling: the notes say why the host was not asked (2026-07-28)', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host,builtin' }));
    const result = (await channel.send(call({}))).message?.['result'];
    expect(result.structuredContent.notes).toEqual([
      expect.stringContaining(
        "answered in place of the client's: this request did not declare the sampling capability",
      ),
    ]);
    expect(result.structuredContent.notes[0]).toContain('(mcp-model-input/builtin-heuristic)');
    expect(result.content.at(-1).text).toBe(`Note: ${result.structuredContent.notes[0]}`);

    // Explore mode needs sampling.tools: sampling alone is not enough, and the note says so.
    const explore = await channel.send({
      ...call({ sampling: {} }),
      params: { name: 'summarize_repo', arguments: { mode: 'explore' }, _meta: meta({ sampling: {} }) },
    });
    expect(explore.message?.['result'].resultType).toBe('complete');
    expect(explore.message?.['result'].structuredContent.notes).toContainEqual(
      expect.stringContaining(
        'this request declared sampling without sampling.tools, which summarize_repo in this mode needs',
      ),
    );

    // With sampling the host is asked: no note.
    expect((await channel.send(call({ sampling: {} }))).message?.['result'].resultType).toBe('input_required');
    await channel.close();
  });

  it('per-step assignment asks the host only for its step', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'pick=builtin,summary=host' }));
    const reply = await channel.send(call({ sampling: {} }));
    expect(Object.keys(reply.message?.['result'].inputRequests)).toEqual(['summary']);
    const refused = await channel.send(call({}));
    expect(refused.message?.['error']?.code).toBe(-32021);
    await channel.close();
  });

  it('rejects bad specs with one-line config errors', () => {
    for (const spec of ['', 'nope', 'host,openai:gpt', 'pick=builtin', 'pick=builtin,summary=x', 'size=host']) {
      // No OPENAI_API_KEY or OPENAI_BASE_URL: openai:gpt is a configuration error too.
      expect(() => parseModelSpec(spec, { env: {} })).toThrow(ModelInputError);
    }
    try {
      parseModelSpec('nope');
    } catch (error) {
      expect((error as ModelInputError).code).toBe('config_invalid');
      expect((error as Error).message).toBe(
        "unknown model source 'nope' (use builtin, host, openai:MODEL or anthropic:MODEL)",
      );
    }
  });
});
