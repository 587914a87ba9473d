/**
 * summarize_repo on server-owned providers, end to end over the HTTP front: the same flow in one
 * `tools/call`, against local servers speaking Chat Completions and the Messages API. Covers the
 * preference list both ways, per-step choice, the pick repair and fallback, usage accounting, the
 * per-call log lines, budgets, and provider failures as `isError` results.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { summarizeRepoOutput } from '../../src/flows/summarizeRepo/schema.js';
import { parseModelSpec, type ModelSpecOptions } from '../../src/models/sources.js';
import { MAX_ANSWER_BYTES } from '../../src/models/untrusted.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta, type RawChannel } from '../helpers/rawChannel.js';
import { capturingLogger } from '../helpers/servers.js';
import {
  anthropicMessage,
  chatCompletion,
  errorBody,
  instantRetry,
  startFakeProvider,
  type FakeProvider,
} from '../models/fakeProviders.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
let openai: FakeProvider;
let anthropic: FakeProvider;
beforeAll(async () => {
  repo = await makeSampleRepo();
  openai = await startFakeProvider('openai');
  anthropic = await startFakeProvider('anthropic');
});
afterAll(async () => {
  await repo.cleanup();
  await openai.close();
  await anthropic.close();
});
afterEach(() => {
  openai.requests.length = 0;
  anthropic.requests.length = 0;
});

function serve(spec: string, options: ModelSpecOptions = {}) {
  const logger = capturingLogger();
  const retry = instantRetry(options.retry?.maxRetries ?? 2);
  const models = parseModelSpec(spec, {
    env: {
      OPENAI_BASE_URL: openai.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-secret',
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
    },
    logger,
    ...options,
    retry: retry.policy,
  });
  const server = createModelInputServer({
    root: repo.root,
    models,
    keyRing: createEphemeralKeyRing(),
    logger,
    defaultPrincipal: ANONYMOUS,
  });
  const channel: RawChannel = httpChannel(
    createModelInputHttpFront(server, { logger, allowedHosts: ['localhost'], allowedOrigins: ['http://localhost'] }),
  );
  return { channel, logger, delays: retry.delays };
}

let nextId = 1;
async function call(
  channel: RawChannel,
  capabilities: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const reply = await channel.send({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name: 'summarize_repo', arguments: { maxFiles: 2 }, _meta: meta(capabilities), ...extra },
  });
  if (reply.message?.['error'] !== undefined) return { error: reply.message['error'] };
  return reply.message?.['result'];
}

const texts = (result: any): string[] => result.content.map((block: { text: string }) => block.text);

describe('summarize_repo on server-owned providers', () => {
  it('openai:CHEAP+STRONG: one call, pick on the cheap model, summary on the strong one, usage counted', async () => {
    const { channel, logger } = serve('openai:small-model+large-model');
    const result = await call(channel);
    expect(result.resultType).toBe('complete');
    expect(result.requestState).toBeUndefined();
    expect(result.isError).toBe(false);
    expect(openai.requests.map((request) => request.body.model)).toEqual(['small-model', 'large-model']);
    expect(result.structuredContent).toMatchObject({
      pickedBy: 'model',
      notes: [],
      model: 'large-model',
      usage: { calls: 2, inputTokens: 240, outputTokens: 60, models: ['small-model', 'large-model'] },
    });
    expect(result.structuredContent.picked).toContain('README.md');
    // Both prompts a provider gets carry the whole-repository facts, as the host's and the built-in model's do.
    for (const request of openai.requests) {
      const prompt = (request.body.messages as Array<{ role: string; content: string }>)
        .map((message) => message.content)
        .join('\n');
      expect(prompt).toMatch(/^Repository facts \(computed from the whole listing of \d+ files/m);
      expect(prompt).toMatch(/^- Main language: TypeScript$/m);
    }
    expect(result.structuredContent.facts.mix.main).toEqual({ language: 'TypeScript', of: 'code' });
    const lines = logger.lines.filter((line) => line.includes('model call'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^info model call pick_files: model=small-model tokens=120\+30 latency=\d+ms outcome=ok$/);
    expect(lines[1]).toMatch(/^info model call summary: model=large-model tokens=120\+30 latency=\d+ms outcome=ok$/);
    expect(logger.lines.join('\n')).not.toMatch(/Candidate files|Sample Widget|sk-ant/);
    await channel.close();
  });

  it('an unusable pick gets one repair request with the answer and what was wrong', async () => {
    const { channel } = serve('openai:m');
    openai.enqueue({ body: chatCompletion({ text: 'Sure! I would read the README first.' }) });
    const result = await call(channel);
    expect(result.structuredContent.pickedBy).toBe('model');
    expect(result.structuredContent.usage.calls).toBe(3);
    const repair = openai.requests[1]?.body.messages as Array<{ role: string; content: string }>;
    expect(repair.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]?.content).toBe('Sure! I would read the README first.');
    expect(repair[3]?.content).toContain('the answer holds no JSON array of file paths');
    expect(repair[3]?.content).toContain('at most 2 file paths');
    await channel.close();
  });

  it('a pick still unusable after the repair falls back to the built-in ranking, and says so', async () => {
    const { channel, logger } = serve('openai:m');
    openai.enqueue(
      { body: chatCompletion({ text: '["nope/not-a-file.md"]' }) },
      { body: chatCompletion({ text: 'I cannot decide.' }) },
    );
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(result.structuredContent.pickedBy).toBe('builtin_ranking');
    expect(result.structuredContent.picked).toContain('README.md');
    expect(result.structuredContent.usage.calls).toBe(3);
    expect(result.structuredContent.notes).toHaveLength(1);
    expect(result.structuredContent.notes[0]).toContain('also after one repair request');
    expect(result.structuredContent.notes[0]).toContain('the built-in ranking picked the files instead');
    expect(texts(result)[1]).toBe(`Note: ${result.structuredContent.notes[0]}`);
    expect(logger.lines.some((line) => line.startsWith('warn summarize_repo: pick_files: falling back'))).toBe(true);
    await channel.close();
  });

  it('a refused pick, or one with no choices, falls back at once', async () => {
    const { channel } = serve('openai:m');
    openai.enqueue({ body: chatCompletion({ text: '' }, { refusal: 'no' }) });
    const refused = await call(channel);
    expect(refused.structuredContent.pickedBy).toBe('builtin_ranking');
    expect(refused.structuredContent.notes[0]).toContain('declined');
    expect(refused.structuredContent.usage.calls).toBe(2);
    openai.enqueue({ body: { ...chatCompletion({ text: '' }), choices: [] } });
    const empty = await call(channel);
    expect(empty.structuredContent.pickedBy).toBe('builtin_ranking');
    expect(empty.structuredContent.notes[0]).toContain('no choices');
    await channel.close();
  });

  it('429 with Retry-After on the summary is waited out; usage counts the call once', async () => {
    const { channel, delays } = serve('openai:m');
    openai.enqueue(
      { body: chatCompletion({ text: '["README.md"]', inputTokens: 50, outputTokens: 5 }) },
      { status: 429, headers: { 'retry-after': '1' }, body: errorBody('openai', 429, 'slow') },
    );
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(delays).toEqual([1000]);
    expect(result.structuredContent.usage).toMatchObject({ calls: 2, inputTokens: 170, outputTokens: 35 });
    await channel.close();
  });

  it.each([
    [{ status: 401, body: errorBody('openai', 401, 'Incorrect API key provided: sk-***') }, 'auth', 'OPENAI_API_KEY'],
    [{ body: '{"choices": [' }, 'malformed JSON', 'OPENAI_BASE_URL'],
    [
      { status: 400, body: errorBody('openai', 400, 'context length') },
      'rejected the request (HTTP 400)',
      'another model',
    ],
  ])('a provider failure on the summary is an isError result with what to do (%#)', async (reply, what, hint) => {
    const { channel } = serve('openai:m');
    openai.enqueue({ body: chatCompletion({ text: '["README.md"]' }) }, reply);
    const result = await call(channel);
    expect(result.resultType).toBe('complete');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [text] = texts(result);
    expect(text).toContain("The server's model could not answer: openai:m:");
    expect(text).toContain(what === 'auth' ? 'refused the credentials (HTTP 401)' : what);
    expect(text).toContain(`What to do:`);
    expect(text).toContain(hint);
    expect(text).not.toMatch(/\n\s+at |sk-\*\*\*|Incorrect API key|context length/);
    await channel.close();
  });

  it('openai:m,builtin: a provider failure is answered by the built-in model the list names after it, noted', async () => {
    const { channel, logger } = serve('openai:m,builtin');
    openai.enqueue(
      { body: chatCompletion({ text: '["README.md"]' }) },
      { status: 401, body: errorBody('openai', 401, 'Incorrect API key provided: sk-***') },
    );
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(result.structuredContent.summary).toContain('sample-widget');
    const note = result.structuredContent.notes.find((text: string) => text.includes('failed for'));
    expect(note).toMatch(
      /^The server's model openai:m failed for 'summary' \(openai:m: .*\); mcp-model-input\/builtin-heuristic answered that step instead\.$/,
    );
    expect(note).not.toMatch(/sk-\*\*\*|Incorrect API key/);
    expect(texts(result)).toContain(`Note: ${note}`);
    expect(logger.lines.some((line) => line.includes('summary: openai:m failed'))).toBe(true);
    await channel.close();
  });

  it('openai:m,anthropic:m2: the second provider answers a step the first fails; the next step asks the first again', async () => {
    const { channel } = serve('openai:m,anthropic:m2');
    openai.enqueue(
      { status: 400, body: errorBody('openai', 400, 'context length') },
      { body: chatCompletion({ text: 'The summary.' }) },
    );
    anthropic.enqueue({ body: anthropicMessage({ text: '["README.md"]' }) });
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      summary: 'The summary.',
      picked: ['README.md'],
      pickedBy: 'model',
    });
    expect(result.structuredContent.notes).toContainEqual(
      expect.stringContaining("The server's model openai:m failed for 'pick_files'"),
    );
    expect(anthropic.requests).toHaveLength(1);
    expect(openai.requests).toHaveLength(2);
    await channel.close();
  });

  it('an empty summary is an unusable answer, a tool error (the summary step has no fallback)', async () => {
    const { channel } = serve('anthropic:claude-test');
    anthropic.enqueue({ body: anthropicMessage({ text: '["README.md"]' }) }, { body: anthropicMessage({ text: '' }) });
    const result = await call(channel);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain('unusable answer for summary: the summary is empty');
    await channel.close();
  });

  it('an empty pick gets a repair request with a placeholder turn, never an empty one (the Messages API rejects it)', async () => {
    const { channel } = serve('anthropic:claude-test');
    anthropic.enqueue({ body: anthropicMessage({ text: '' }) }, { body: anthropicMessage({ text: '["README.md"]' }) });
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(result.structuredContent.pickedBy).toBe('model');
    expect(result.structuredContent.picked).toEqual(['README.md']);
    const repair = anthropic.requests[1]?.body.messages as Array<{ role: string; content: string }>;
    expect(repair.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair[1]?.content).toBe('(empty answer)');
    await channel.close();
  });

  it('a pick over 256 KiB is unusable: the built-in ranking picks, and says so', async () => {
    const { channel } = serve('openai:m');
    openai.enqueue({ body: chatCompletion({ text: `["README.md"${', "x"'.repeat(MAX_ANSWER_BYTES / 5)}]` }) });
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(result.structuredContent.pickedBy).toBe('builtin_ranking');
    expect(result.structuredContent.notes[0]).toContain(`larger than ${MAX_ANSWER_BYTES} bytes`);
    expect(openai.requests).toHaveLength(2);
    await channel.close();
  });

  it('a summary over 256 KiB is an isError result', async () => {
    const { channel } = serve('openai:m');
    openai.enqueue(
      { body: chatCompletion({ text: '["README.md"]' }) },
      { body: chatCompletion({ text: 'A widget. '.repeat(MAX_ANSWER_BYTES / 8) }) },
    );
    const result = await call(channel);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain(`larger than ${MAX_ANSWER_BYTES} bytes`);
    await channel.close();
  });

  it('nonsense from the provider (token counts, model name) still gives a result that matches the output schema', async () => {
    const { channel, logger } = serve('openai:m');
    const forged = 'gpt\nmcp-model-input: model call summary: model=x tokens=0+0 latency=0ms outcome=ok';
    openai.enqueue(
      { body: { ...chatCompletion({ text: '["README.md"]', inputTokens: -1_000_000 }), usage: { prompt_tokens: 5 } } },
      { body: chatCompletion({ text: 'A widget.', model: forged, inputTokens: -1_000_000, outputTokens: 0.5 }) },
    );
    const result = await call(channel);
    expect(result.isError).toBe(false);
    expect(summarizeRepoOutput.safeParse(result.structuredContent).success).toBe(true);
    const { usage, model } = result.structuredContent;
    expect(usage.inputTokens).toBeGreaterThan(5);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(model).toBe('gptmcp-model-input:_model_call_summary:_model=x_tokens=0+0_latency=0ms_outcome=ok');
    expect(usage.models).toEqual(['fake-gpt', model]);
    const lines = logger.lines.filter((line) => line.includes('model call'));
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => /tokens=~\d+\+\d+ /.test(line))).toBe(true);
    await channel.close();
  });

  it('a timeout ends as an isError result naming --model-timeout, never a hang', async () => {
    const { channel } = serve('anthropic:claude-test', { timeoutMs: 100, retry: { maxRetries: 0 } });
    anthropic.enqueue({ body: anthropicMessage({ text: '["README.md"]' }) }, { hang: true });
    const result = await call(channel);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain('no answer within 100 ms');
    expect(texts(result)[0]).toContain('--model-timeout');
    await channel.close();
  });

  it('the call budget bounds a tool call', async () => {
    const { channel } = serve('openai:m', { budget: { maxCalls: 1 } });
    const result = await call(channel);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain('budget of 1 model calls per tool call');
    expect(texts(result)[0]).toContain('--max-model-calls');
    expect(openai.requests).toHaveLength(1);
    await channel.close();
  });

  it('the token budget bounds a tool call before the provider is asked', async () => {
    const { channel } = serve('openai:m', { budget: { maxTokens: 1000 } });
    const result = await call(channel);
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toContain('--max-model-tokens');
    await channel.close();
  });
});

describe('choosing the source per request and per step', () => {
  it('host,openai:m: the host when the request declares sampling, the provider otherwise', async () => {
    const { channel } = serve('host,openai:m');
    const withSampling = await call(channel, { sampling: {} });
    expect(withSampling.resultType).toBe('input_required');
    expect(Object.keys(withSampling.inputRequests)).toEqual(['pick_files']);
    expect(openai.requests).toHaveLength(0);
    const without = await call(channel, {});
    expect(without.resultType).toBe('complete');
    expect(without.structuredContent.usage.calls).toBe(2);
    expect(openai.requests).toHaveLength(2);
    await channel.close();
  });

  it('pick=openai:m,summary=host: the pick runs inline, the host gets only the summary; usage carries over', async () => {
    const { channel } = serve('pick=openai:m,summary=host');
    const first = await call(channel, { sampling: {} });
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['summary']);
    expect(openai.requests).toHaveLength(1);
    const done = await call(
      channel,
      { sampling: {} },
      {
        requestState: first.requestState,
        inputResponses: {
          summary: { role: 'assistant', content: { type: 'text', text: 'A widget.' }, model: 'host-model' },
        },
      },
    );
    expect(done.resultType).toBe('complete');
    expect(done.structuredContent.model).toBe('host-model');
    expect(done.structuredContent.usage).toEqual({ calls: 1, inputTokens: 120, outputTokens: 30, models: ['m'] });
    // Without sampling, the host's step cannot be served: -32021 before any provider call.
    const refused = await call(channel, {});
    expect(refused.error.code).toBe(-32021);
    expect(openai.requests).toHaveLength(1);
    await channel.close();
  });

  it('pick=builtin,summary=anthropic:…: the built-in model picks, the provider summarizes', async () => {
    const { channel } = serve('pick=builtin,summary=anthropic:claude-test');
    const result = await call(channel);
    expect(result.resultType).toBe('complete');
    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]?.body.system).toContain('summarize');
    expect(result.structuredContent.usage).toEqual({
      calls: 2,
      inputTokens: 120,
      outputTokens: 30,
      models: ['mcp-model-input/builtin-heuristic', 'claude-test'],
    });
    await channel.close();
  });

  it('the host-only plan reports zero server usage after its rounds', async () => {
    const { channel } = serve('host');
    const first = await call(channel, { sampling: {} });
    const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'h' });
    const second = await call(
      channel,
      { sampling: {} },
      { requestState: first.requestState, inputResponses: { pick_files: answer('["README.md"]') } },
    );
    const done = await call(
      channel,
      { sampling: {} },
      { requestState: second.requestState, inputResponses: { summary: answer('Done.') } },
    );
    expect(done.structuredContent.usage).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, models: [] });
    expect(done.structuredContent.pickedBy).toBe('model');
    await channel.close();
  });

  it("an unusable pick from the host's model is answered by the provider after host, never repaired; noted", async () => {
    const { channel } = serve('host,openai:m');
    const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'h' });
    const first = await call(channel, { sampling: {} });
    const next = await call(
      channel,
      { sampling: {} },
      { requestState: first.requestState, inputResponses: { pick_files: answer('prose') } },
    );
    // The provider picked (one call, the pick prompt as the host got it, no repair turn); the host still summarizes.
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]?.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(Object.keys(next.inputRequests)).toEqual(['summary']);
    const done = await call(
      channel,
      { sampling: {} },
      { requestState: next.requestState, inputResponses: { summary: answer('A widget.') } },
    );
    expect(done.structuredContent.model).toBe('h');
    expect(done.structuredContent.usage.calls).toBe(1);
    expect(done.structuredContent.notes).toEqual([
      expect.stringMatching(
        /^The client's model gave an unusable answer for 'pick_files' \(the answer holds no JSON array.*\); the server's own model \(openai:m\) answered that step instead\.$/,
      ),
    ]);
    expect(texts(done).at(-1)).toBe(`Note: ${done.structuredContent.notes[0]}`);
    await channel.close();

    // The host alone: the same answer is the client's error, with the input key and the reason in data.
    const hostOnly = serve('host');
    const again = await call(hostOnly.channel, { sampling: {} });
    const bad = await call(
      hostOnly.channel,
      { sampling: {} },
      { requestState: again.requestState, inputResponses: { pick_files: answer('prose') } },
    );
    expect(bad.error).toMatchObject({
      code: -32602,
      data: { key: 'pick_files', reason: expect.stringContaining('no JSON array of file paths') },
    });
    expect(openai.requests).toHaveLength(1);
    await hostOnly.channel.close();
  });
});
