/**
 * `summarize_repo` is a model tool on the kit (app/summarizeRepoRun.ts, kit/flowOnKit.ts): the same tool the server
 * serves runs under `testModelTool` against the client profiles, its flow advancing round by round from a checkpoint
 * in the kit's journal, with the flow engine's refusals and notes.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { summarizeRepoModelTool } from '../../src/app/summarizeRepoRun.js';
import { testModelTool } from '../../src/entries/testing.js';
import { createModelKit, registerModelTool } from '../../src/entries/tool.js';
import { isModelTool, type ModelToolContext } from '../../src/kit/index.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

const summarize = () =>
  summarizeRepoModelTool({
    root: repo.root,
    models: parseModelSpec('host,builtin'),
    logger: silentLogger,
    surveyCache: false,
  });
const model = { pick_files: '["README.md"]', summary: 'A summary of the widget.' };
const texts = (result: { content: Array<{ type: string; text?: string }> } | undefined) =>
  result?.content.map((block) => block.text ?? '') ?? [];

describe('summarize_repo on the kit', () => {
  it('is a model tool: its steps, with summarize’s heuristic as the built-in model of each', () => {
    const tool = summarize();
    expect(isModelTool(tool)).toBe(true);
    expect(Object.keys(tool.steps)).toEqual(['pick_files', 'summary', 'explore']);
    expect(Object.keys(tool.builtin ?? {})).toEqual(['pick_files', 'summary', 'explore']);
  });

  it('2026-07-28 with sampling: a round per step, each answer the host’s', async () => {
    const run = await testModelTool(summarize(), { client: 'mrtr-sampling', model, server: { root: repo.root } });
    expect(run.rounds).toEqual([
      { requests: [{ key: 'pick_files', method: 'sampling/createMessage' }] },
      { requests: [{ key: 'summary', method: 'sampling/createMessage' }] },
    ]);
    expect(run.result?.structuredContent).toMatchObject({
      mode: 'pick',
      summary: 'A summary of the widget.',
      picked: ['README.md'],
      pickedBy: 'model',
    });
    expect(run.routes.map((route) => [route.step, route.route])).toEqual([
      ['pick_files', 'host'],
      ['summary', 'host'],
    ]);
  });

  it('2025-11-25 with sampling (VS Code): the same questions, live', async () => {
    const run = await testModelTool(summarize(), { client: 'legacy-sampling', model, server: { root: repo.root } });
    expect(run.result?.isError).not.toBe(true);
    expect(run.routes.map((route) => route.route)).toEqual(['live', 'live']);
  });

  it('without sampling (Claude Code on 2026-07-28): the built-in model in one call, and the note says why', async () => {
    const run = await testModelTool(summarize(), { client: 'mrtr-no-sampling', server: { root: repo.root } });
    expect(run.rounds).toEqual([]);
    expect(run.result?.structuredContent).toMatchObject({ pickedBy: 'model', usage: { calls: 2 } });
    expect(run.routes.map((route) => [route.step, route.route])).toEqual([
      ['pick_files', 'builtin'],
      ['summary', 'builtin'],
    ]);
    expect(texts(run.result)).toContain(
      "Note: The server's own model (mcp-model-input/builtin-heuristic) answered in place of the client's: this " +
        'request did not declare the sampling capability.',
    );
  });

  it('a server with the host alone: a client without sampling gets -32021 before any work', async () => {
    const run = await testModelTool(summarize(), {
      client: 'mrtr-no-sampling',
      server: { root: repo.root, models: 'host' },
    });
    expect(run.error?.code).toBe(-32021);
    expect(run.error?.message).toContain("summarize_repo needs model input ('pick_files')");
  });

  it('an unusable host answer is answered by the built-in model the plan names after the host, with a note', async () => {
    const run = await testModelTool(summarize(), {
      client: 'mrtr-sampling',
      model: { pick_files: 'no list here', summary: 'A summary.' },
      server: { root: repo.root },
    });
    expect(run.result?.structuredContent).toMatchObject({ summary: 'A summary.' });
    expect(texts(run.result).join('\n')).toContain("The client's model gave an unusable answer for 'pick_files'");
  });

  it("registered on the SDK's own McpServer (registerModelTool), the SDK's client completes both rounds", async () => {
    const kit = createModelKit({ models: 'host', root: repo.root });
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'author-server', version: '1.0.0' });
      registerModelTool(server, summarize(), kit);
      return server;
    });
    const client = new Client(
      { name: 'sdk-client', version: '1.0.0' },
      { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const answers = [model.pick_files, model.summary];
    const asked: number[] = [];
    client.setRequestHandler('sampling/createMessage', () => {
      asked.push(asked.length);
      return {
        role: 'assistant' as const,
        content: { type: 'text' as const, text: answers[asked.length - 1] ?? '' },
        model: 'client-model',
      };
    });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'summarize_repo', arguments: { maxFiles: 2 } });
      expect(asked).toHaveLength(2);
      expect(result.structuredContent).toMatchObject({ summary: model.summary, picked: ['README.md'] });
    } finally {
      await client.close();
      await handler.close();
    }
  });

  it('runs only on a kit of this package: a context without its bridge is refused', async () => {
    const context = { signal: new AbortController().signal } as unknown as ModelToolContext;
    await expect(summarize().run({ maxFiles: 3 } as never, context)).rejects.toThrow(/runs only on the kit/);
  });
});
