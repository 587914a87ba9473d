/**
 * A 20 KB answer on a two-instance fleet sharing a real Redis: its journal entry spills to the store, the next round
 * is served by the other instance, and the call completes; the state that carried the spilled entry, replayed, is
 * refused like any replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { defineModelTool } from '../../src/kit/modelTool.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { createRedisStore, type SharedStore } from '../../src/state/stores/index.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta, type RawChannel } from '../helpers/rawChannel.js';
import { missingBinaries, startRedis, type TestRedis } from '../helpers/redis.js';

const missing = missingBinaries('redis-server');

const ask = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  maxTokens: 50,
});
const twoQuestions = defineModelTool({
  name: 'two_questions',
  description: 'Asks twice.',
  input: z.object({}),
  steps: { first: {}, second: {} },
  async run(_args, ctx) {
    const one = await ctx.sample('first', ask('first?'));
    const two = await ctx.sample('second', ask(`second, after ${one.text.length} characters?`));
    return `${one.text.length}|${two.text}`;
  },
});

describe.skipIf(missing.length > 0)('spilled journal entries on a fleet with Redis', () => {
  let redis: TestRedis;
  let repo: FixtureRepo;
  const stores: SharedStore[] = [];
  const instances: RawChannel[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    repo = await makeTree({ 'README.md': '# x\n' });
    const keyRing = createEphemeralKeyRing();
    for (let i = 0; i < 2; i++) {
      const store = createRedisStore({ url: redis.url, logger: silentLogger });
      await store.ping(); // connected before the first round (commands fail fast while connecting)
      stores.push(store);
      const server = createModelInputServer({
        root: repo.root,
        tools: [twoQuestions],
        models: parseModelSpec('host'),
        keyRing,
        store,
        logger: silentLogger,
        defaultPrincipal: ANONYMOUS,
      });
      const front = createModelInputHttpFront(server, {
        logger: silentLogger,
        allowedHosts: ['localhost'],
        allowedOrigins: ['http://localhost'],
      });
      instances.push(httpChannel(front));
    }
  }, 60_000);
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    for (const store of stores) await store.close();
    await redis?.stop();
    await repo?.cleanup();
  });

  const call = (id: number, extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'two_questions', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
  });
  const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'm' });

  it('completes across instances, and refuses the spilled state replayed', async () => {
    const [a, b] = instances as [RawChannel, RawChannel];
    const first = (await a.send(call(1))).message?.result;
    expect(first.resultType).toBe('input_required');
    const long = 'x'.repeat(20 * 1024);
    const second = (
      await b.send(call(2, { requestState: first.requestState, inputResponses: { first: answer(long) } }))
    ).message?.result;
    expect(Object.keys(second.inputRequests)).toEqual(['second']);
    // The 20 KB answer is not in the state: only its digest is.
    expect(second.requestState.length).toBeLessThan(4 * 1024);
    const retry = { requestState: second.requestState, inputResponses: { second: answer('done') } };
    const done = (await a.send(call(3, retry))).message?.result;
    expect(done.content[0].text).toBe(`${long.length}|done`);
    const replayed = (await b.send(call(4, retry))).message;
    expect(replayed?.error.code).toBe(-32602);
  });
});
