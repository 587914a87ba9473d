/**
 * Answers nested 30,000 deep, from the host's model over MRTR: as pick text, and as an object inside the input
 * response. Each is the client's error, -32602 saying what is wrong, never -32603 from a stack overflow; and the
 * server answers the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta, type RawChannel } from '../helpers/rawChannel.js';
import { capturingLogger, createTestFront } from '../helpers/servers.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const DEPTH = 30_000;
let nextId = 1;

function call(extra: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
  };
}

/**
 * The first round's state, then the pick answered with `response`, whose `"DEEP"` (if any) is replaced by JSON text
 * nested `DEPTH` deep (written as text: the test's own JSON.stringify would overflow on it).
 */
async function answerPick(channel: RawChannel, response: unknown) {
  const round = (await channel.send(call())).message?.['result'];
  expect(round?.resultType).toBe('input_required');
  const [key] = Object.keys(round.inputRequests as object);
  const body = JSON.stringify(call({ requestState: round.requestState, inputResponses: { [key!]: response } }));
  const deep = body.replace('"DEEP"', `${'[{"a":'.repeat(DEPTH / 2)}1${'}]'.repeat(DEPTH / 2)}`);
  return channel.send(deep, { 'mcp-method': 'tools/call', 'mcp-name': 'summarize_repo' });
}

describe('a host answer nested 30,000 deep', () => {
  it('as pick text: -32602 naming the nesting, and the server goes on', async () => {
    const logger = capturingLogger();
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host', logger }));
    const text = `${'['.repeat(DEPTH)}"README.md"${']'.repeat(DEPTH)}`;
    const reply = await answerPick(channel, { role: 'assistant', content: { type: 'text', text }, model: 'm' });
    expect(reply.message?.['error']?.code, reply.text?.slice(0, 300)).toBe(-32602);
    expect(reply.message?.['error']?.message).toContain('more than 64 deep');
    expect(logger.lines.join('\n')).not.toMatch(/call stack|internal_error/i);
    expect((await channel.send(call())).message?.['result']?.resultType).toBe('input_required');
    await channel.close();
  });

  it('as an object inside the input response: -32602', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const content = [{ type: 'text', text: '["README.md"]', extra: 'DEEP' }];
    const reply = await answerPick(channel, { role: 'assistant', content, model: 'm' });
    expect(reply.message?.['error']?.code).toBe(-32602);
    expect(reply.message?.['error']?.message).toContain('more than 64 deep');
    await channel.close();
  });
});
