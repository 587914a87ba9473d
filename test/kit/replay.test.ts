/**
 * Stateless replay: each round runs `run` from the top against the journal sealed in `requestState`. Answers are
 * bound to their questions, `once` work runs once per call, an elicitation is a round like a sample, and a journal
 * too large for the state spills to the store — with single use and binding unchanged.
 */
import type { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createModelKit } from '../../src/kit/kit.js';
import { defineModelTool, isModelTool } from '../../src/kit/modelTool.js';
import { createMemoryStore } from '../../src/state/stores/index.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { callOnce, callToEnd, hostAnswer, isInputRequired, textOf } from './helpers.js';

const SAMPLING = { sampling: {} };
const ask = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  maxTokens: 100,
});

function twoQuestions(counter: { reads: number }) {
  return defineModelTool({
    name: 'two_questions',
    description: 'Asks twice.',
    input: z.object({ topic: z.string() }),
    steps: { first: {}, second: {} },
    async run({ topic }, ctx) {
      const facts = await ctx.once('facts', () => {
        counter.reads++;
        return { topic, read: counter.reads };
      });
      const one = await ctx.sample('first', ask(`About ${facts.topic}?`));
      const two = await ctx.sample('second', ask(`And then? (${one.text.length} chars before)`));
      return `${one.text.slice(0, 10)}|${two.text}|read ${facts.read}`;
    },
  });
}

describe('replay', () => {
  it('is recognised by shape and marker, not identity', () => {
    const tool = twoQuestions({ reads: 0 });
    expect(isModelTool(tool)).toBe(true);
    expect(isModelTool({ ...tool })).toBe(true);
    expect(isModelTool({ ...tool, '~mcpModelInput': 'model-tool@2' })).toBe(false);
    expect(isModelTool({ name: 'x', run: () => 1 })).toBe(false);
    expect(isModelTool(null)).toBe(false);
  });

  it('runs once-work once across rounds, and asks each question in its own round', async () => {
    const counter = { reads: 0 };
    const kit = createModelKit({ models: 'host' });
    const keys: string[] = [];
    const { result, rounds } = await callToEnd(
      twoQuestions(counter),
      kit,
      { topic: 'ducks' },
      (key) => {
        keys.push(key);
        return hostAnswer(`answer to ${key}`);
      },
      { capabilities: SAMPLING },
    );
    expect(rounds).toHaveLength(2);
    expect(keys).toEqual(['first', 'second']);
    expect(counter.reads).toBe(1);
    expect(textOf(result)).toBe('answer to |answer to second|read 1');
  });

  it('a second run that asks a different question is refused, not answered with another answer', async () => {
    let run = 0;
    const fickle = defineModelTool({
      name: 'fickle',
      description: 'Changes its mind.',
      input: z.object({}),
      steps: { q: {} },
      async run(_args, ctx) {
        run++;
        const a = await ctx.sample('q', ask(`question ${run}`));
        return a.text;
      },
    });
    const kit = createModelKit({ models: 'host' });
    const first = await callOnce(fickle, kit, {}, { capabilities: SAMPLING });
    if (!isInputRequired(first)) throw new Error('expected a round');
    const second = await callOnce(
      fickle,
      kit,
      {},
      {
        capabilities: SAMPLING,
        requestState: first.requestState,
        inputResponses: { q: hostAnswer('the answer to question 1') },
      },
    );
    expect(second).toMatchObject({ isError: true });
    expect(textOf(second as never)).toContain("asked a different question ('q')");
  });

  it('an elicitation is a round like a sample (embedded elicitation/create), journaled with the rest', async () => {
    const confirm = defineModelTool({
      name: 'confirm_then_ask',
      description: 'Confirms, then asks.',
      input: z.object({}),
      steps: { q: {} },
      async run(_args, ctx) {
        const ok = await ctx.elicit('confirm', {
          message: 'Go on?',
          requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] },
        });
        if (ok.action !== 'accept') return 'stopped';
        return (await ctx.sample('q', ask('go'))).text;
      },
    });
    const kit = createModelKit({ models: 'host' });
    const methods: string[] = [];
    const { result } = await callToEnd(
      confirm,
      kit,
      {},
      (key, request) => {
        methods.push(`${key}:${request.method}`);
        return request.method === 'elicitation/create'
          ? { action: 'accept', content: { yes: true } }
          : hostAnswer('went');
      },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    expect(methods).toEqual(['confirm:elicitation/create', 'q:sampling/createMessage']);
    expect(textOf(result)).toBe('went');
    // Without the elicitation capability on 2026-07-28: -32021, never an undeclared request.
    const refused = await callOnce(confirm, kit, {}, { capabilities: SAMPLING }).catch((e: unknown) => e);
    expect((refused as ProtocolError).code).toBe(-32021);
  });

  it('a 20 KB answer spills to the store: the state stays small and the call completes', async () => {
    const store = createMemoryStore();
    const kit = createModelKit({ models: 'host', store });
    const long = 'x'.repeat(20 * 1024);
    const { result } = await callToEnd(
      twoQuestions({ reads: 0 }),
      kit,
      { topic: 't' },
      (key) => hostAnswer(key === 'first' ? long : 'short'),
      {
        capabilities: SAMPLING,
      },
    );
    expect(textOf(result)).toBe('xxxxxxxxxx|short|read 1');
  });

  it('without a store that keeps values, a journal too large for the state is a clear tool error', async () => {
    const { keep: _k, recall: _r, ...plain } = createMemoryStore();
    const kit = createModelKit({ models: 'host', store: plain });
    const tool = twoQuestions({ reads: 0 });
    const first = await callOnce(tool, kit, { topic: 't' }, { capabilities: SAMPLING });
    if (!isInputRequired(first)) throw new Error('expected a round');
    const second = await callOnce(
      tool,
      kit,
      { topic: 't' },
      {
        capabilities: SAMPLING,
        requestState: first.requestState,
        inputResponses: { first: hostAnswer('y'.repeat(20 * 1024)) },
      },
    );
    expect(second).toMatchObject({ isError: true });
    expect(textOf(second as never)).toContain('too large to carry between rounds');
  });

  it('a state replayed after its journal entry spilled is refused like any replay; a lost entry too', async () => {
    const keyRing = createEphemeralKeyRing();
    const store = createMemoryStore();
    const kit = createModelKit({ models: 'host', store, keyRing });
    const tool = twoQuestions({ reads: 0 });
    const first = await callOnce(tool, kit, { topic: 't' }, { capabilities: SAMPLING });
    if (!isInputRequired(first)) throw new Error('expected a round');
    const spilled = await callOnce(
      tool,
      kit,
      { topic: 't' },
      {
        capabilities: SAMPLING,
        requestState: first.requestState,
        inputResponses: { first: hostAnswer('z'.repeat(20 * 1024)) },
      },
    );
    if (!isInputRequired(spilled)) throw new Error('expected a second round');
    expect((spilled.requestState ?? '').length).toBeLessThan(8192);
    const retry = {
      capabilities: SAMPLING,
      requestState: spilled.requestState,
      inputResponses: { second: hostAnswer('s') },
    };
    expect(textOf((await callOnce(tool, kit, { topic: 't' }, retry)) as never)).toContain('|s|');
    const replayed = await callOnce(tool, kit, { topic: 't' }, retry).catch((e: unknown) => e);
    expect((replayed as ProtocolError).code).toBe(-32602);
    expect((replayed as Error).message).toContain('Invalid or expired requestState');
    // Another instance with the same keys but a store that never kept the entry: refused, not mis-answered.
    const elsewhere = createModelKit({ models: 'host', store: createMemoryStore(), keyRing });
    const again = await callOnce(tool, kit, { topic: 't' }, { capabilities: SAMPLING });
    if (!isInputRequired(again)) throw new Error('expected a round');
    const big = await callOnce(
      tool,
      kit,
      { topic: 't' },
      {
        capabilities: SAMPLING,
        requestState: again.requestState,
        inputResponses: { first: hostAnswer('w'.repeat(20 * 1024)) },
      },
    );
    if (!isInputRequired(big)) throw new Error('expected a round');
    const lost = await callOnce(
      tool,
      elsewhere,
      { topic: 't' },
      {
        capabilities: SAMPLING,
        requestState: big.requestState,
        inputResponses: { second: hostAnswer('s') },
      },
    ).catch((e: unknown) => e);
    expect((lost as ProtocolError).code).toBe(-32602);
  });

  it('bounded rounds: the round cap of the kit holds', async () => {
    const loop = defineModelTool({
      name: 'asks_forever',
      description: 'Asks and asks.',
      input: z.object({}),
      steps: { q: {} },
      async run(_args, ctx) {
        for (let i = 0; i < 50; i++) await ctx.sample('q', ask(`round ${i}`));
        return 'never';
      },
    });
    const kit = createModelKit({ models: 'host', maxRounds: 3 });
    const error = await callToEnd(loop, kit, {}, () => hostAnswer('more'), { capabilities: SAMPLING }).catch(
      (e: unknown) => e,
    );
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as Error).message).toContain('round limit of 3');
  });
});
