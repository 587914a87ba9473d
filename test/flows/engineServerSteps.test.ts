/**
 * The engine with a server-owned model, on a one-step flow written against the engine's contract:
 * repair and fallback only when the step declares them, usage only in the field the flow names,
 * and cancellation is not turned into a tool result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CallToolResult } from '@modelcontextprotocol/server';

import { runFlow, type SealedFlow } from '../../src/flows/engine.js';
import { answerText, type FlowDefinition, type ModelStep } from '../../src/flows/flow.js';
import { FlowAnswerError } from '../../src/flows/flowAnswerError.js';
import { silentLogger } from '../../src/logger.js';
import type { CompletionModel, ModelCompletionRequest } from '../../src/models/modelSource.js';
import { createOpenAIChatModel } from '../../src/models/providers/openaiChat.js';
import type { ModelPlan } from '../../src/models/sources.js';
import type { ModelBudget } from '../../src/models/usage.js';
import { createEphemeralKeyRing, createStateCodec } from '../../src/state/index.js';
import { capturingLogger } from '../helpers/servers.js';
import { errorBody, instantRetry, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';
import { firstCallContext } from '../helpers/toolContext.js';

type State = { phase: 'ask' };

function scripted(...answers: string[]): CompletionModel & { seen: ModelCompletionRequest[] } {
  const seen: ModelCompletionRequest[] = [];
  return {
    name: 'scripted',
    seen,
    complete: async (request) => {
      seen.push(request);
      request.onUsage?.({ inputTokens: 10, outputTokens: 1 });
      return { role: 'assistant', content: { type: 'text', text: answers.shift() ?? 'bad' }, model: 'scripted-1' };
    },
  };
}

function flowOf(options: { recover?: boolean; usageField?: string } = {}): FlowDefinition<object, State> {
  const step: ModelStep<object, State> = {
    key: 'answer',
    prepare: async () => ({
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'say ok' } }], maxTokens: 5 },
    }),
    accept: async (_args, _state, answer) => {
      const text = answerText(answer);
      if (text !== 'ok') throw new FlowAnswerError('answer', `expected ok, got '${text}'`);
      return { done: { content: [{ type: 'text', text }], structuredContent: { text }, isError: false } };
    },
    ...(options.recover === true && {
      recover: {
        repairInstruction: (_args, error) => `fix it: ${error.message}`,
        fallback: async (_args, _state, params, reason) => ({
          done: {
            content: [{ type: 'text', text: `fallback for ${params.messages.length} message(s): ${reason}` }],
            structuredContent: { text: 'fallback' },
            isError: false,
          },
        }),
      },
    }),
  };
  return {
    tool: 'echo',
    keys: ['answer'],
    initial: () => ({ phase: 'ask' }),
    step: () => step,
    ...(options.usageField !== undefined && { usageField: options.usageField }),
  };
}

function run(
  flow: FlowDefinition<object, State>,
  model: CompletionModel,
  signal = new AbortController().signal,
  extra: { budget?: ModelBudget; now?: () => number } = {},
) {
  const plan: ModelPlan = {
    spec: 'test',
    sourceFor: () => ({ kind: 'server', model }),
    ...(extra.budget !== undefined && { budget: extra.budget }),
  };
  return runFlow(flow, {}, firstCallContext({ signal }), {
    codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
    models: plan,
    logger: silentLogger,
    ...(extra.now !== undefined && { now: extra.now }),
  }) as Promise<CallToolResult>;
}

describe('engine: server-owned steps', () => {
  it('without a recovery, an unusable answer is a tool error after one call', async () => {
    const model = scripted('nope');
    const result = await run(flowOf(), model);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain(
      "unusable answer for answer: expected ok, got 'nope'",
    );
    expect(model.seen).toHaveLength(1);
  });

  it('with a recovery, one repair request carries the bad answer and the instruction', async () => {
    const model = scripted('nope', 'ok');
    const result = await run(flowOf({ recover: true, usageField: 'usage' }), model);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      text: 'ok',
      usage: { calls: 2, inputTokens: 20, outputTokens: 2, models: ['scripted-1'] },
    });
    const repair = model.seen[1]?.params.messages;
    expect(repair?.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair?.[2]?.content).toEqual({ type: 'text', text: "fix it: expected ok, got 'nope'" });
  });

  it('after a failed repair the fallback completes the step, from the original request', async () => {
    const model = scripted('nope', 'still no');
    const result = await run(flowOf({ recover: true }), model);
    expect((result.content[0] as { text: string }).text).toBe(
      "fallback for 1 message(s): expected ok, got 'still no', also after one repair request",
    );
    expect(model.seen).toHaveLength(2);
    // No usage field named: the result is left as the flow made it.
    expect(result.structuredContent).toEqual({ text: 'fallback' });
  });

  it('a cancelled call rejects; it is not turned into a tool result', async () => {
    const controller = new AbortController();
    let called!: () => void;
    const calling = new Promise<void>((resolve) => (called = resolve));
    const model: CompletionModel = {
      name: 'slow',
      complete: (request) =>
        new Promise((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true });
          called();
        }),
    };
    const pending = run(flowOf({ recover: true }), model, controller.signal);
    await calling;
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
    // Already cancelled: no model call at all.
    const idle = scripted('ok');
    await expect(run(flowOf(), idle, controller.signal)).rejects.toThrow('client went away');
    expect(idle.seen).toHaveLength(0);
  });

  it('an empty answer is echoed in the repair request as a placeholder, never as an empty turn', async () => {
    const model = scripted(' \n', 'ok');
    const result = await run(flowOf({ recover: true }), model);
    expect(result.isError).toBe(false);
    expect(model.seen[1]?.params.messages[1]).toEqual({
      role: 'assistant',
      content: { type: 'text', text: '(empty answer)' },
    });
  });
});

describe('engine: the model deadline of a tool call', () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider('openai');
  });
  afterAll(async () => {
    await provider.close();
  });

  it('Retry-After waits that would pass --model-deadline end the call with an isError result (injected clock)', async () => {
    let clock = 0;
    const retry = instantRetry(10, (ms) => (clock += ms));
    const model = createOpenAIChatModel({
      model: 'm',
      baseURL: provider.baseUrl,
      timeoutMs: 60_000,
      retry: retry.policy,
      logger: capturingLogger(),
    });
    const limited = { status: 429, headers: { 'retry-after': '25' }, body: errorBody('openai', 429, 'slow down') };
    // 10 retries of 25 s each would hold the call for over four minutes; the deadline allows 60 s.
    provider.enqueue(limited, limited, limited);
    const result = await run(flowOf({ recover: true }), model, new AbortController().signal, {
      budget: { maxCalls: 6, maxTokens: 200_000, deadlineMs: 60_000 },
      now: () => clock,
    });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain("The server's model could not answer");
    expect(text).toContain('the 60 s this tool call may spend on model calls');
    expect(text).toContain('--model-deadline');
    expect(retry.delays).toEqual([25_000, 25_000]);
    expect(provider.requests).toHaveLength(3);
  });
});
