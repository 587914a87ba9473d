/**
 * The Anthropic adapter against a local Messages API server: the wire shape it sends, what it makes
 * of the answer, and the failure paths (401, 429 with Retry-After, 500 then success, 529, a timeout,
 * malformed JSON, empty content, a refusal). No test waits for a retry delay.
 */
import { describe, expect, it, vi } from 'vitest';

import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { createAnthropicMessagesModel } from '../../src/models/providers/anthropicMessages.js';
import { estimateInputTokens } from '../../src/models/providers/turns.js';
import { capturingLogger } from '../helpers/servers.js';
import { anthropicMessage, errorBody, fakeProviderForSuite, instantRetry, providerFailure } from './fakeProviders.js';

const provider = fakeProviderForSuite('anthropic', () => ({ body: anthropicMessage({ text: 'fine' }) }));

const params: CreateMessageRequestParams = {
  systemPrompt: 'You summarize repositories.',
  messages: [
    { role: 'user', content: { type: 'text', text: 'Summarize.' } },
    { role: 'assistant', content: [{ type: 'text', text: 'Which part?' }] },
    { role: 'user', content: { type: 'text', text: 'All of it.' } },
  ],
  temperature: 0.2,
  stopSequences: ['<<<END'],
  maxTokens: 1200,
};

function model(options: { retries?: number; timeoutMs?: number } = {}) {
  const retry = instantRetry(options.retries ?? 2);
  const logger = capturingLogger();
  const created = createAnthropicMessagesModel({
    model: 'claude-test',
    apiKey: 'sk-ant-test-key',
    baseURL: provider.baseUrl,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: retry.policy,
    logger,
  });
  return { model: created, delays: retry.delays, logger };
}

describe('anthropic: Messages API adapter', () => {
  it('sends the sampling request as a Messages request and maps the answer back', async () => {
    const usage: unknown[] = [];
    const answer = await model().model.complete({ key: 'summary', params, onUsage: (u) => usage.push(u) });
    expect(answer).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'fine' },
      model: 'fake-claude',
      stopReason: 'endTurn',
    });
    expect(usage).toEqual([{ inputTokens: 100, outputTokens: 10 }]);
    const [request] = provider.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sentKey = request?.headers['x-api-key'] ?? request?.headers.authorization;
    expect(String(sentKey)).toContain('sk-ant-test-key');
    expect(request?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1200,
      system: 'You summarize repositories.',
      messages: [
        { role: 'user', content: 'Summarize.' },
        { role: 'assistant', content: 'Which part?' },
        { role: 'user', content: 'All of it.' },
      ],
      temperature: 0.2,
      stop_sequences: ['<<<END'],
    });
  });

  it('joins text blocks, skips other blocks, and maps stop reasons', async () => {
    provider.enqueue({
      body: {
        ...anthropicMessage({ text: 'x', stop: 'max_tokens' }),
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: 'part one, ' },
          { type: 'text', text: 'part two' },
        ],
      },
    });
    const answer = await model().model.complete({ key: 'k', params });
    expect(answer.content).toEqual({ type: 'text', text: 'part one, part two' });
    expect(answer.stopReason).toBe('maxTokens');
  });

  it('401: an auth failure at once, naming ANTHROPIC_API_KEY but never the provider text', async () => {
    provider.enqueue({ status: 401, body: errorBody('anthropic', 401, 'invalid x-api-key sk-ant-***') });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('auth');
    expect(error.hint).toContain('ANTHROPIC_API_KEY');
    expect(`${error.message} ${error.hint}`).not.toMatch(/sk-ant|invalid x-api-key/);
    expect(provider.requests).toHaveLength(1);
  });

  it('429 with Retry-After: waits what the provider asks, then succeeds', async () => {
    provider.enqueue({ status: 429, headers: { 'retry-after': '3' }, body: errorBody('anthropic', 429, 'rate') });
    const { model: m, delays } = model();
    await m.complete({ key: 'k', params });
    expect(delays).toEqual([3000]);
    expect(provider.requests).toHaveLength(2);
  });

  it('500 then success, and 529 (overloaded) then success: retried with backoff', async () => {
    provider.enqueue({ status: 500, body: errorBody('anthropic', 500, 'x') });
    const first = model();
    await first.model.complete({ key: 'k', params });
    expect(first.delays).toEqual([5]);
    provider.enqueue(
      { status: 529, body: errorBody('anthropic', 529, 'overloaded') },
      { status: 529, body: errorBody('anthropic', 529, 'overloaded') },
    );
    const second = model();
    await second.model.complete({ key: 'k', params });
    expect(second.delays).toEqual([5, 10]);
  });

  it('a timeout is retried, then reported as a timeout', async () => {
    provider.enqueue({ hang: true }, { hang: true });
    // Each attempt's deadline is long enough for its request to be sent on a loaded machine; the fake server (in
    // this thread) may record a request only after the client gave up on it: waited for (bounded), so no request
    // lands in the next test.
    const error = await providerFailure(model({ retries: 1, timeoutMs: 1000 }).model.complete({ key: 'k', params }));
    expect(error.failure).toBe('timeout');
    expect(error.message).toContain('after 2 attempts');
    await vi.waitFor(() => expect(provider.requests).toHaveLength(2), { timeout: 10_000 });
  });

  it('a body that stalls after the headers hits the same deadline', async () => {
    provider.enqueue({ stallBody: true }, { stallBody: true });
    const error = await providerFailure(model({ retries: 1, timeoutMs: 1000 }).model.complete({ key: 'k', params }));
    expect(error.failure).toBe('timeout');
    expect(provider.requests).toHaveLength(2);
  });

  it('malformed JSON is a bad response', async () => {
    provider.enqueue({ body: '{"type": "message", "content": [' });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('bad_response');
    expect(provider.requests).toHaveLength(1);
  });

  it('a body that is not a Messages response is a bad response', async () => {
    provider.enqueue({ body: { choices: [] } });
    expect((await providerFailure(model().model.complete({ key: 'k', params }))).failure).toBe('bad_response');
  });

  it('empty content is an empty answer (the flow decides), with its tokens counted', async () => {
    provider.enqueue({ body: anthropicMessage({ text: '', outputTokens: 0 }) });
    const usage: unknown[] = [];
    const answer = await model().model.complete({ key: 'k', params, onUsage: (u) => usage.push(u) });
    expect(answer.content).toEqual({ type: 'text', text: '' });
    expect(usage).toEqual([{ inputTokens: 100, outputTokens: 0 }]);
  });

  it('stop_reason refusal is reported as refused', async () => {
    provider.enqueue({ body: anthropicMessage({ text: 'I will not.', stop: 'refusal' }) });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('refused');
    expect(error.message).not.toContain('I will not');
  });

  it('400 is a bad request, not retried', async () => {
    provider.enqueue({ status: 400, body: errorBody('anthropic', 400, 'prompt is too long') });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('bad_request');
    expect(error.message).not.toContain('prompt is too long');
    expect(provider.requests).toHaveLength(1);
  });

  it.each([
    ['a partial usage object', { input_tokens: 5 }, { inputTokens: 5, outputTokens: 1, estimated: true }],
    [
      'negative and fractional counts',
      { input_tokens: -7, output_tokens: 0.5 },
      { inputTokens: estimateInputTokens(params), outputTokens: 1, estimated: true },
    ],
    [
      'a usage that is not an object',
      [],
      { inputTokens: estimateInputTokens(params), outputTokens: 1, estimated: true },
    ],
  ])('%s does not spoil the answer; the counts that make no sense are estimated', async (_what, usage, counted) => {
    provider.enqueue({ body: { ...anthropicMessage({ text: 'fine' }), usage } });
    const seen: unknown[] = [];
    const answer = await model().model.complete({ key: 'k', params, onUsage: (u) => seen.push(u) });
    expect(answer.content).toEqual({ type: 'text', text: 'fine' });
    expect(seen).toEqual([counted]);
  });

  it('the reported model name is cleaned and bounded', async () => {
    provider.enqueue(
      { body: anthropicMessage({ text: 'a', model: 'claude\r\nmcp-model-input: forged' }) },
      { body: anthropicMessage({ text: 'b', model: 'c'.repeat(100_000) }) },
    );
    const { model: m } = model();
    expect((await m.complete({ key: 'k', params })).model).toBe('claudemcp-model-input:_forged');
    expect([...(await m.complete({ key: 'k', params })).model]).toHaveLength(128);
  });

  it('the local server rejects empty text turns like the real API (so tests catch code that sends them)', async () => {
    const empty = {
      ...params,
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: 'Summarize.' } },
        { role: 'assistant' as const, content: { type: 'text' as const, text: ' \n' } },
        { role: 'user' as const, content: { type: 'text' as const, text: 'Again.' } },
      ],
    };
    const error = await providerFailure(model().model.complete({ key: 'k', params: empty }));
    expect(error.failure).toBe('bad_request');
    expect(error.status).toBe(400);
  });
});
