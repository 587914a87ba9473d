import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost, targetKey } from '../../src/host/createHost.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { parseHostModelSpec } from '../../src/host/hostModels.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { createHostileServer, SCENARIOS } from '../helpers/hostileServers.js';
import { chatCompletion, startFakeProvider } from '../models/fakeProviders.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mmi-host-models-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseHostModelSpec', () => {
  it("knows no built-in model of its own: the composition gives it (the ./host surface: summarize_repo's)", async () => {
    await expect(parseHostModelSpec('builtin', { env: {} })).rejects.toThrow('no built-in model is configured');
  });

  it('builds builtin, scripted and provider entries with their tiers, in order', async () => {
    const script = join(dir, 'answers.json');
    await writeFile(script, JSON.stringify({ pick_files: '["a.ts"]', summary: ['one', 'two'] }));
    const entries = await parseHostModelSpec(`builtin=strong, scripted:${script}=cheap, openai:gpt-test`, {
      env: { OPENAI_API_KEY: 'sk-test' },
      builtin: createBuiltinModel(),
    });
    expect(entries.map((entry) => entry.id)).toEqual(['builtin', `scripted:${script}`, 'openai:gpt-test']);
    expect(entries[0]).toMatchObject(TIER_ATTRIBUTES.strong);
    expect(entries[1]).toMatchObject(TIER_ATTRIBUTES.cheap);
    expect(entries[2]).toMatchObject(TIER_ATTRIBUTES.balanced);
    const scripted = entries[1]!.model;
    const params = { messages: [], maxTokens: 10 };
    const first = await scripted.complete({ key: 'summary', params });
    const second = await scripted.complete({ key: 'summary', params });
    const third = await scripted.complete({ key: 'summary', params });
    expect([first, second, third].map((result) => (result.content as { text: string }).text)).toEqual([
      'one',
      'two',
      'two',
    ]);
  });

  it.each([
    ['', 'empty --host-model'],
    ['gpt', "unknown host model 'gpt'"],
    ['builtin=huge', "bad --host-model entry 'builtin=huge'"],
    ['builtin=toString', "bad --host-model entry 'builtin=toString'"],
    ['scripted:', 'scripted: needs a FILE'],
    ['scripted:/nonexistent/answers.json', 'cannot read it (ENOENT)'],
    ['openai:gpt-test', 'OPENAI_API_KEY'],
  ])('refuses %j with a one-line config error', async (spec, message) => {
    await expect(parseHostModelSpec(spec, { env: {} })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining(message) as unknown,
    });
  });

  it('takes tool turns in a scripted file: the model then uses tools, and the host declares sampling.tools', async () => {
    const script = join(dir, 'explore.json');
    await writeFile(
      script,
      JSON.stringify({ explore: [{ toolUse: [{ name: 'read_file', input: { path: 'README.md' } }] }, 'Done.'] }),
    );
    const [entry] = await parseHostModelSpec(`scripted:${script}`);
    expect(entry?.model.usesTools).toBe(true);
    const answer = await entry!.model.complete({ key: 'explore', params: { messages: [], maxTokens: 10 } });
    expect(answer).toMatchObject({
      stopReason: 'toolUse',
      content: [{ type: 'tool_use', name: 'read_file', input: { path: 'README.md' } }],
    });
    const texts = join(dir, 'texts.json');
    await writeFile(texts, JSON.stringify({ pick_files: '["a.ts"]' }));
    const [plain] = await parseHostModelSpec(`scripted:${texts}`);
    expect(plain?.model.usesTools).toBe(false);
  });

  it('refuses a scripted file that is not an object of texts', async () => {
    const script = join(dir, 'bad.json');
    await writeFile(script, JSON.stringify({ pick_files: 3 }));
    await expect(parseHostModelSpec(`scripted:${script}`)).rejects.toThrow(/expected an object of input key/);
  });
});

describe('a provider as the host model', () => {
  it('answers the embedded request through the shared provider adapter, with reported usage', async () => {
    const provider = await startFakeProvider('openai');
    provider.enqueue({ body: chatCompletion({ text: '["README.md"]', inputTokens: 120, outputTokens: 7 }) });
    const server = createHostileServer(SCENARIOS.honest);
    try {
      const models = await parseHostModelSpec('openai:fake-gpt', {
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.baseUrl },
      });
      const host = createHost({
        models,
        approver: { review: () => Promise.resolve({ kind: 'approve' }) },
        rateLimiter: createRateLimiter({ capacity: 10, refillPerSecond: 10, maxWaitMs: 0 }),
      });
      const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
      const outcome = await connection.callTool('summarize_repo', {});
      await connection.close();
      expect(outcome.usage.tokens).toBe(127);
      expect(provider.requests).toHaveLength(1);
      expect(provider.requests[0]?.body.max_tokens ?? provider.requests[0]?.body.max_completion_tokens).toBe(200);
      expect(server.calls[1]?.inputResponses?.['pick_files']).toMatchObject({
        content: { type: 'text', text: '["README.md"]' },
      });
    } finally {
      await provider.close();
    }
  });
});

describe('targetKey', () => {
  it('keeps plain command lines readable and never lets two argv share a key', () => {
    expect(targetKey({ kind: 'stdio', command: 'node', args: ['dist/cli.js', 'serve', '--stdio'] })).toBe(
      'stdio:node dist/cli.js serve --stdio',
    );
    const spaced = targetKey({ kind: 'stdio', command: 'node', args: ['a b'] });
    const split = targetKey({ kind: 'stdio', command: 'node', args: ['a', 'b'] });
    expect(spaced).toBe("stdio:node 'a b'");
    expect(split).toBe('stdio:node a b');
    expect(targetKey({ kind: 'stdio', command: 'node', args: ["it's"] })).toBe("stdio:node 'it'\\''s'");
    expect(targetKey({ kind: 'http', url: 'http://127.0.0.1:3000/mcp' })).toBe('http://127.0.0.1:3000/mcp');
  });
});
