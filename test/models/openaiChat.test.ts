/**
 * The OpenAI-compatible adapter against a local Chat Completions server: the wire shape it sends,
 * what it makes of the answer, and every failure path (401, 429 with Retry-After, 500 then success,
 * a timeout, malformed JSON, no choices, a refusal). No test waits for a retry delay.
 */
import { describe, expect, it, vi } from 'vitest';

import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { silentLogger } from '../../src/logger.js';
import { createOpenAIChatModel, maxTokensFieldFor } from '../../src/models/providers/openaiChat.js';
import { estimateInputTokens } from '../../src/models/providers/turns.js';
import { capturingLogger } from '../helpers/servers.js';
import {
  chatCompletion,
  errorBody,
  fakeProviderForSuite,
  instantRetry,
  providerFailure,
  startFakeProvider,
} from './fakeProviders.js';

const provider = fakeProviderForSuite('openai', () => ({ body: chatCompletion({ text: 'fine' }) }));

const params: CreateMessageRequestParams = {
  systemPrompt: 'You pick files.',
  messages: [{ role: 'user', content: { type: 'text', text: 'Pick at most 2 files.' } }],
  modelPreferences: { costPriority: 0.8, intelligencePriority: 0.2 },
  maxTokens: 400,
};

function model(
  options: {
    apiKey?: string;
    retries?: number;
    timeoutMs?: number;
    maxTokensField?: 'max_tokens' | 'max_completion_tokens';
    onSleep?: (ms: number) => void;
  } = {},
) {
  const retry = instantRetry(options.retries ?? 2, options.onSleep);
  const logger = capturingLogger();
  const created = createOpenAIChatModel({
    model: 'gpt-test',
    baseURL: provider.baseUrl,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: retry.policy,
    logger,
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.maxTokensField !== undefined && { maxTokensField: options.maxTokensField }),
  });
  return { model: created, delays: retry.delays, logger };
}

describe('openai: Chat Completions adapter', () => {
  it('sends the sampling request as Chat Completions and maps the answer back', async () => {
    const { model: m } = model({ apiKey: 'sk-test-key' });
    const usage: unknown[] = [];
    const answer = await m.complete({ key: 'pick_files', params, onUsage: (u) => usage.push(u) });
    expect(answer).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'fine' },
      model: 'fake-gpt',
      stopReason: 'endTurn',
    });
    expect(usage).toEqual([{ inputTokens: 100, outputTokens: 10 }]);
    const [request] = provider.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You pick files.' },
        { role: 'user', content: 'Pick at most 2 files.' },
      ],
      // A base URL other than api.openai.com gets the field every compatible server reads.
      max_tokens: 400,
    });
  });

  it('sends no Authorization header at all without a key (Ollama and friends)', async () => {
    await model().model.complete({ key: 'k', params });
    expect(provider.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('401: an auth failure at once, naming OPENAI_API_KEY but never the provider text or key', async () => {
    provider.enqueue({ status: 401, body: errorBody('openai', 401, 'Incorrect API key provided: sk-abc***xyz') });
    const error = await providerFailure(model({ apiKey: 'sk-secret-value' }).model.complete({ key: 'k', params }));
    expect(error.failure).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.hint).toContain('OPENAI_API_KEY');
    expect(`${error.message} ${error.hint}`).not.toMatch(/sk-abc|sk-secret|Incorrect/);
    expect(provider.requests).toHaveLength(1);
  });

  it('429 with Retry-After: waits what the provider asks, then succeeds', async () => {
    provider.enqueue({ status: 429, headers: { 'retry-after': '2' }, body: errorBody('openai', 429, 'slow down') });
    const { model: m, delays, logger } = model();
    const answer = await m.complete({ key: 'k', params });
    expect((answer.content as { text: string }).text).toBe('fine');
    expect(delays).toEqual([2000]);
    expect(provider.requests).toHaveLength(2);
    expect(logger.lines.join('\n')).toContain('rate_limited (HTTP 429), retry 1 of 2 in 2000 ms');
  });

  it('429 asking for a longer wait than the server allows fails now, saying so', async () => {
    provider.enqueue({ status: 429, headers: { 'retry-after': '120' }, body: errorBody('openai', 429, 'quota') });
    const { model: m, delays } = model();
    const error = await providerFailure(m.complete({ key: 'k', params }));
    expect(error.failure).toBe('rate_limited');
    expect(error.message).toContain('asks to wait 120 s');
    expect(delays).toEqual([]);
    expect(provider.requests).toHaveLength(1);
  });

  it('500 then success: retried with backoff', async () => {
    provider.enqueue({ status: 500, body: errorBody('openai', 500, 'boom') });
    const { model: m, delays } = model();
    await m.complete({ key: 'k', params });
    expect(delays).toEqual([5]);
    expect(provider.requests).toHaveLength(2);
  });

  it('5xx every time: gives up after the configured retries', async () => {
    provider.enqueue(
      { status: 503, body: errorBody('openai', 503, 'down') },
      { status: 502, body: 'bad gateway' },
      { status: 500, body: errorBody('openai', 500, 'boom') },
    );
    const { model: m, delays } = model({ retries: 2 });
    const error = await providerFailure(m.complete({ key: 'k', params }));
    expect(error.failure).toBe('unavailable');
    expect(error.message).toContain('after 3 attempts');
    expect(delays).toEqual([5, 10]);
    expect(provider.requests).toHaveLength(3);
  });

  it('a timeout is retried, then reported as a timeout', async () => {
    provider.enqueue({ hang: true }, { hang: true });
    // Each attempt's deadline is long enough for its request to be sent on a loaded machine; the fake server (in
    // this thread) may record a request only after the client gave up on it: waited for (bounded), so no request
    // lands in the next test.
    const { model: m } = model({ retries: 1, timeoutMs: 1000 });
    const error = await providerFailure(m.complete({ key: 'k', params }));
    expect(error.failure).toBe('timeout');
    expect(error.hint).toContain('--model-timeout');
    await vi.waitFor(() => expect(provider.requests).toHaveLength(2), { timeout: 10_000 });
  });

  it('a body that stalls after the headers hits the same deadline', async () => {
    provider.enqueue({ stallBody: true });
    const error = await providerFailure(model({ retries: 0, timeoutMs: 1000 }).model.complete({ key: 'k', params }));
    expect(error.failure).toBe('timeout');
    expect(provider.requests).toHaveLength(1);
  });

  it('malformed JSON is a bad response, not retried', async () => {
    provider.enqueue({ body: '{"id": "x", "choices": [' });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('bad_response');
    expect(error.message).toContain('malformed JSON');
    expect(provider.requests).toHaveLength(1);
  });

  it('a body that is not a Chat Completions response is a bad response', async () => {
    provider.enqueue({ body: { hello: 'world' } });
    expect((await providerFailure(model().model.complete({ key: 'k', params }))).failure).toBe('bad_response');
  });

  it('an empty choice list is a bad response (its tokens still counted)', async () => {
    provider.enqueue({ body: { ...chatCompletion({ text: '' }), choices: [] } });
    const usage: unknown[] = [];
    const error = await providerFailure(model().model.complete({ key: 'k', params, onUsage: (u) => usage.push(u) }));
    expect(error.failure).toBe('bad_response');
    expect(error.message).toContain('no choices');
    expect(usage).toHaveLength(1);
  });

  it('a refusal is reported as refused, without the refusal text', async () => {
    provider.enqueue({ body: chatCompletion({ text: '' }, { refusal: 'I cannot help with that secret plan.' }) });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('refused');
    expect(error.message).not.toContain('secret plan');
  });

  it('content_filter with no content is a refusal; length maps to maxTokens', async () => {
    provider.enqueue({ body: chatCompletion({ text: '', stop: 'content_filter' }) });
    expect((await providerFailure(model().model.complete({ key: 'k', params }))).failure).toBe('refused');
    provider.enqueue({ body: chatCompletion({ text: 'cut', stop: 'length' }) });
    expect((await model().model.complete({ key: 'k', params })).stopReason).toBe('maxTokens');
  });

  it('404: an unknown model or endpoint, not retried', async () => {
    provider.enqueue({ status: 404, body: errorBody('openai', 404, 'model not found') });
    const error = await providerFailure(model().model.complete({ key: 'k', params }));
    expect(error.failure).toBe('not_found');
    expect(provider.requests).toHaveLength(1);
  });

  it('refuses non-text content before sending anything', async () => {
    const image = {
      ...params,
      messages: [{ role: 'user' as const, content: { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' } }],
    };
    const error = await providerFailure(model().model.complete({ key: 'k', params: image }));
    expect(error.failure).toBe('bad_request');
    expect(provider.requests).toHaveLength(0);
  });

  it('the caller cancelling ends the call at once, without retries', async () => {
    provider.enqueue({ hang: true }, { hang: true });
    const controller = new AbortController();
    const pending = model({ retries: 2 }).model.complete({ key: 'k', params, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the client')), 20);
    await expect(pending).rejects.toThrow('cancelled by the client');
    expect(provider.requests.length).toBeLessThanOrEqual(1);
  });

  it('an unreachable endpoint is unavailable', async () => {
    const gone = await startFakeProvider('openai');
    await gone.close();
    const m = createOpenAIChatModel({
      model: 'x',
      baseURL: gone.baseUrl,
      timeoutMs: 2000,
      retry: instantRetry(0).policy,
      logger: silentLogger,
    });
    const error = await providerFailure(m.complete({ key: 'k', params }));
    expect(error.failure).toBe('unavailable');
    expect(error.hint).toContain('OPENAI_BASE_URL');
  });

  it('the token-limit field: max_completion_tokens for api.openai.com, max_tokens for any other base URL', async () => {
    expect(maxTokensFieldFor('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(maxTokensFieldFor('https://api.openai.com/v1/')).toBe('max_completion_tokens');
    expect(maxTokensFieldFor('HTTPS://API.OPENAI.COM/v1')).toBe('max_completion_tokens');
    expect(maxTokensFieldFor('http://127.0.0.1:11434/v1')).toBe('max_tokens');
    expect(maxTokensFieldFor('https://api.openai.com.example.test/v1')).toBe('max_tokens');
    expect(maxTokensFieldFor('https://proxy.example.test/api.openai.com/v1')).toBe('max_tokens');
    expect(maxTokensFieldFor(provider.baseUrl)).toBe('max_tokens');
    // What the field decides is what goes on the wire.
    await model({ maxTokensField: 'max_completion_tokens' }).model.complete({ key: 'k', params });
    expect(provider.requests[0]?.body.max_completion_tokens).toBe(400);
    expect(provider.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('token counts that are negative or fractional are replaced by the estimate', async () => {
    provider.enqueue({ body: chatCompletion({ text: 'twelve chars', inputTokens: -500, outputTokens: 2.5 }) });
    const usage: unknown[] = [];
    await model().model.complete({ key: 'k', params, onUsage: (u) => usage.push(u) });
    expect(usage).toEqual([{ inputTokens: estimateInputTokens(params), outputTokens: 3, estimated: true }]);
  });

  it.each([
    ['a partial usage object', { prompt_tokens: 5 }, { inputTokens: 5, outputTokens: 1, estimated: true }],
    [
      'a usage that is not an object',
      'lots',
      { inputTokens: estimateInputTokens(params), outputTokens: 1, estimated: true },
    ],
    ['no usage at all', null, { inputTokens: estimateInputTokens(params), outputTokens: 1, estimated: true }],
  ])('%s does not spoil the answer; the missing counts are estimated', async (_what, usage, counted) => {
    provider.enqueue({ body: { ...chatCompletion({ text: 'fine' }), usage } });
    const seen: unknown[] = [];
    const answer = await model().model.complete({ key: 'k', params, onUsage: (u) => seen.push(u) });
    expect((answer.content as { text: string }).text).toBe('fine');
    expect(seen).toEqual([counted]);
  });

  it('the reported model name is cleaned and bounded; a missing or empty one is the configured id', async () => {
    provider.enqueue(
      { body: chatCompletion({ text: 'a', model: 'gpt\nmcp-model-input: warning: forged' }) },
      { body: chatCompletion({ text: 'b', model: 'g'.repeat(100_000) }) },
      { body: { ...chatCompletion({ text: 'c' }), model: 42 } },
    );
    const { model: m } = model();
    expect((await m.complete({ key: 'k', params })).model).toBe('gptmcp-model-input:_warning:_forged');
    expect([...(await m.complete({ key: 'k', params })).model]).toHaveLength(128);
    expect((await m.complete({ key: 'k', params })).model).toBe('gpt-test');
  });

  it('retry-after-ms is honoured in milliseconds', async () => {
    provider.enqueue({ status: 429, headers: { 'retry-after-ms': '250' }, body: errorBody('openai', 429, 'slow') });
    const { model: m, delays } = model();
    await m.complete({ key: 'k', params });
    expect(delays).toEqual([250]);
  });

  it('Retry-After as an HTTP date: a far one fails now, like a long number of seconds', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    provider.enqueue({ status: 429, headers: { 'retry-after': later }, body: errorBody('openai', 429, 'quota') });
    const { model: m, delays } = model();
    const error = await providerFailure(m.complete({ key: 'k', params }));
    expect(error.failure).toBe('rate_limited');
    expect(error.message).toMatch(/asks to wait 3[56]\d\d s/);
    expect(delays).toEqual([]);
  });

  it('Retry-After on a 5xx is honoured too', async () => {
    provider.enqueue({ status: 503, headers: { 'retry-after': '3' }, body: errorBody('openai', 503, 'busy') });
    const { model: m, delays } = model();
    await m.complete({ key: 'k', params });
    expect(delays).toEqual([3000]);
    expect(provider.requests).toHaveLength(2);
  });

  it.each([408, 409])('%i is retried', async (status) => {
    provider.enqueue({ status, body: errorBody('openai', status, 'again') });
    const { model: m, delays } = model();
    expect((await m.complete({ key: 'k', params })).content).toEqual({ type: 'text', text: 'fine' });
    expect(delays).toEqual([5]);
    expect(provider.requests).toHaveLength(2);
  });

  it.each(['-1', 'soon', '1e3'])('an unusable Retry-After (%s) falls back to the backoff', async (value) => {
    provider.enqueue({ status: 429, headers: { 'retry-after': value }, body: errorBody('openai', 429, 'slow') });
    const { model: m, delays } = model();
    await m.complete({ key: 'k', params });
    expect(delays).toEqual([5]);
  });

  it('the model deadline stops the retries: no wait that would end past it (injected clock)', async () => {
    let clock = 0;
    const { model: m, delays } = model({ retries: 10, onSleep: (ms) => (clock += ms) });
    const limited = { status: 429, headers: { 'retry-after': '4' }, body: errorBody('openai', 429, 'slow') };
    provider.enqueue(limited, limited, limited);
    const error = await providerFailure(
      m.complete({ key: 'k', params, deadline: { totalMs: 10_000, leftMs: () => 10_000 - clock } }),
    );
    expect(error.failure).toBe('deadline_exceeded');
    expect(error.message).toContain('rate-limiting requests (HTTP 429), after 3 attempts');
    expect(error.message).toContain('waiting to retry would pass the 10 s this tool call may spend on model calls');
    expect(error.hint).toContain('--model-deadline');
    expect(delays).toEqual([4000, 4000]);
    expect(provider.requests).toHaveLength(3);
  });
});
