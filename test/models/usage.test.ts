/** The per-tool-call usage meter: totals, budgets, and one log line per call without prompt text. */
import { describe, expect, it } from 'vitest';

import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { ModelProviderError } from '../../src/models/providerError.js';
import { estimateInputTokens } from '../../src/models/providers/turns.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { MAX_ANSWER_BYTES } from '../../src/models/untrusted.js';
import { createUsageMeter } from '../../src/models/usage.js';
import { capturingLogger } from '../helpers/servers.js';

const params: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'TOP SECRET PROMPT TEXT '.repeat(10) } }],
  maxTokens: 100,
};

function metered(name: string, tokens: { in: number; out: number }): CompletionModel {
  return {
    name,
    complete: async (request) => {
      request.onUsage?.({ inputTokens: tokens.in, outputTokens: tokens.out });
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: `${name}-2026` };
    },
  };
}

describe('usage meter', () => {
  it('adds up calls, tokens and model names, and logs one line per call', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger, now: () => 0 });
    await meter.complete(metered('cheap', { in: 300, out: 20 }), { key: 'pick_files', params });
    await meter.complete(metered('strong', { in: 900, out: 200 }), { key: 'summary', params });
    await meter.complete(metered('strong', { in: 100, out: 50 }), { key: 'summary', params });
    expect(meter.totals()).toEqual({
      calls: 3,
      inputTokens: 1300,
      outputTokens: 270,
      models: ['cheap-2026', 'strong-2026'],
    });
    expect(logger.lines).toEqual([
      'info model call pick_files: model=cheap-2026 tokens=300+20 latency=0ms outcome=ok',
      'info model call summary: model=strong-2026 tokens=900+200 latency=0ms outcome=ok',
      'info model call summary: model=strong-2026 tokens=100+50 latency=0ms outcome=ok',
    ]);
  });

  it('a model without token counts is logged as such; carried totals continue', async () => {
    const logger = capturingLogger();
    const start = { calls: 1, inputTokens: 10, outputTokens: 5, models: ['m'] };
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger, start });
    await meter.complete(createBuiltinModel(), { key: 'summary', params });
    expect(meter.totals()).toEqual({ ...start, calls: 2, models: ['m', 'mcp-model-input/builtin-heuristic'] });
    expect(logger.lines[0]).toMatch(/model=mcp-model-input\/builtin-heuristic tokens=n\/a latency=\d+ms outcome=ok$/);
    expect(start.calls).toBe(1);
  });

  it('refuses a call past the call budget, before calling', async () => {
    const meter = createUsageMeter({ budget: { maxCalls: 1, maxTokens: 10_000 }, logger: capturingLogger() });
    await meter.complete(metered('m', { in: 1, out: 1 }), { key: 'a', params });
    let called = false;
    const spy: CompletionModel = {
      name: 'spy',
      complete: async () => {
        called = true;
        throw new Error('unreachable');
      },
    };
    const error = await meter.complete(spy, { key: 'b', params }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as ModelProviderError).failure).toBe('budget_exceeded');
    expect((error as ModelProviderError).hint).toContain('--max-model-calls');
    expect(called).toBe(false);
  });

  it('refuses a call whose estimated tokens would exceed the token budget', async () => {
    const meter = createUsageMeter({ budget: { maxCalls: 9, maxTokens: 1000 }, logger: capturingLogger() });
    await meter.complete(metered('m', { in: 800, out: 100 }), { key: 'a', params });
    const error = await meter.complete(metered('m', { in: 1, out: 1 }), { key: 'b', params }).catch((e: unknown) => e);
    expect((error as ModelProviderError).failure).toBe('budget_exceeded');
    expect((error as ModelProviderError).hint).toContain('--max-model-tokens');
    expect(meter.totals().calls).toBe(1);
  });

  it('a failed call is counted and logged with its outcome, never the prompt', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger });
    const failing: CompletionModel = {
      name: 'openai:m',
      complete: async (request) => {
        request.onUsage?.({ inputTokens: 7, outputTokens: 0 });
        throw new ModelProviderError('refused', 'openai:m: the model declined to answer', {
          model: 'openai:m',
          hint: 'try another model',
        });
      },
    };
    await expect(meter.complete(failing, { key: 'summary', params })).rejects.toThrow('declined');
    expect(meter.totals()).toMatchObject({ calls: 1, inputTokens: 7, models: [] });
    expect(logger.lines[0]).toMatch(
      /^info model call summary: model=openai:m tokens=7\+0 latency=\d+ms outcome=refused$/,
    );
    expect(logger.lines.join('\n')).not.toContain('TOP SECRET');
  });

  it('token counts that are not non-negative integers are replaced by the estimate', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger, now: () => 0 });
    const lying: CompletionModel = {
      name: 'liar',
      complete: async (request) => {
        request.onUsage?.({ inputTokens: -1_000_000, outputTokens: 2.5 });
        return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'liar' };
      },
    };
    const seen: unknown[] = [];
    await meter.complete(lying, { key: 'k', params, onUsage: (usage) => seen.push(usage) });
    const input = estimateInputTokens(params);
    expect(meter.totals()).toMatchObject({ inputTokens: input, outputTokens: params.maxTokens });
    expect(seen).toEqual([{ inputTokens: input, outputTokens: params.maxTokens, estimated: true }]);
    expect(logger.lines[0]).toBe(`info model call k: model=liar tokens=~${input}+100 latency=0ms outcome=ok`);
    // A negative count no longer opens up the token budget.
    const tight = createUsageMeter({ budget: { maxCalls: 9, maxTokens: 400 }, logger: capturingLogger() });
    await tight.complete(lying, { key: 'a', params });
    await tight.complete(lying, { key: 'b', params });
    const third = await tight.complete(lying, { key: 'c', params }).catch((error: unknown) => error);
    expect((third as ModelProviderError).failure).toBe('budget_exceeded');
  });

  it('a model name is cleaned and bounded before it is logged, counted or returned', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger });
    const named = (model: string): CompletionModel => ({
      name: 'openai:m',
      complete: async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model }),
    });
    const forged = await meter.complete(named('gpt\nmcp-model-input: warning: forged'), { key: 'a', params });
    const huge = await meter.complete(named('x'.repeat(100_000)), { key: 'b', params });
    const empty = await meter.complete(named('\r\n'), { key: 'c', params });
    expect(forged.model).toBe('gptmcp-model-input:_warning:_forged');
    expect([...huge.model]).toHaveLength(128);
    expect(empty.model).toBe('openai:m');
    expect(meter.totals().models).toEqual([forged.model, huge.model, 'openai:m']);
    expect(logger.lines).toHaveLength(3);
    for (const line of logger.lines) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(line.length).toBeLessThan(300);
    }
  });

  it('an answer over MAX_ANSWER_BYTES is a bad response; its tokens still count', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger });
    const flood: CompletionModel = {
      name: 'openai:m',
      complete: async (request) => {
        request.onUsage?.({ inputTokens: 10, outputTokens: 20 });
        return { role: 'assistant', content: { type: 'text', text: 'x'.repeat(MAX_ANSWER_BYTES + 1) }, model: 'm' };
      },
    };
    const error = await meter.complete(flood, { key: 'summary', params }).catch((thrown: unknown) => thrown);
    expect((error as ModelProviderError).failure).toBe('bad_response');
    expect((error as ModelProviderError).message).toContain(`larger than ${MAX_ANSWER_BYTES} bytes`);
    expect(meter.totals()).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 20, models: [] });
    expect(logger.lines[0]).toMatch(/outcome=bad_response$/);
    // Exactly at the cap is fine.
    const atCap: CompletionModel = {
      name: 'openai:m',
      complete: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'y'.repeat(MAX_ANSWER_BYTES) },
        model: 'm',
      }),
    };
    await expect(meter.complete(atCap, { key: 'summary', params })).resolves.toMatchObject({ model: 'm' });
  });

  it('an answer that calls tools is a bad response on this path (the flow offered none)', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 5, maxTokens: 10_000 }, logger });
    const model = createScriptedModel({ summary: { toolUse: [{ name: 'read_file', input: { path: 'a' } }] } });
    const error = await meter.complete(model, { key: 'summary', params }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      failure: 'bad_response',
      message: expect.stringContaining('calls tools') as unknown,
    });
    expect(logger.lines[0]).toMatch(/outcome=bad_response$/);
  });

  it('the model deadline: time spent in calls adds up; once spent, no call starts (injected clock)', async () => {
    let clock = 0;
    const logger = capturingLogger();
    const meter = createUsageMeter({
      budget: { maxCalls: 9, maxTokens: 100_000, deadlineMs: 150_000 },
      logger,
      now: () => clock,
    });
    const left: number[] = [];
    const slow: CompletionModel = {
      name: 'openai:slow',
      complete: async (request) => {
        left.push(request.deadline?.leftMs() ?? -1);
        clock += 100_000; // the call takes 100 s
        left.push(request.deadline?.leftMs() ?? -1);
        return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'slow' };
      },
    };
    await meter.complete(slow, { key: 'pick_files', params });
    await meter.complete(slow, { key: 'summary', params });
    expect(left).toEqual([150_000, 50_000, 50_000, -50_000]);
    let called = false;
    const spy: CompletionModel = {
      name: 'openai:spy',
      complete: async () => {
        called = true;
        throw new Error('unreachable');
      },
    };
    const error = (await meter
      .complete(spy, { key: 'summary', params })
      .catch((e: unknown) => e)) as ModelProviderError;
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error.failure).toBe('deadline_exceeded');
    expect(error.message).toContain('150 s');
    expect(error.hint).toContain('--model-deadline');
    expect(called).toBe(false);
    expect(meter.totals().calls).toBe(2);
  });

  it('a call still running when the deadline passes is cancelled with a deadline error', async () => {
    const logger = capturingLogger();
    const meter = createUsageMeter({ budget: { maxCalls: 9, maxTokens: 100_000, deadlineMs: 20 }, logger });
    // Never answers; only its signal ends it.
    const stuck: CompletionModel = {
      name: 'openai:stuck',
      complete: (request) =>
        new Promise((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(new Error('aborted by the signal')), { once: true });
        }),
    };
    const error = (await meter
      .complete(stuck, { key: 'summary', params })
      .catch((e: unknown) => e)) as ModelProviderError;
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error.failure).toBe('deadline_exceeded');
    expect(logger.lines[0]).toMatch(/model=openai:stuck tokens=n\/a latency=\d+ms outcome=deadline_exceeded$/);
  });

  it("the caller's cancellation stays a cancellation, not a deadline", async () => {
    const meter = createUsageMeter({ budget: { maxCalls: 9, maxTokens: 100_000 }, logger: capturingLogger() });
    const controller = new AbortController();
    const stuck: CompletionModel = {
      name: 'openai:stuck',
      complete: (request) =>
        new Promise((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true });
          controller.abort(new Error('client went away'));
        }),
    };
    await expect(meter.complete(stuck, { key: 'k', params, signal: controller.signal })).rejects.toThrow(
      'client went away',
    );
  });
});
