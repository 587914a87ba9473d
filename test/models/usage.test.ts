/** The per-tool-call usage meter: totals, budgets, and one log line per call without prompt text. */
import { describe, expect, it } from 'vitest';

import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { createBuiltinModel } from '../../src/models/builtin.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { ModelProviderError } from '../../src/models/providerError.js';
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
});
