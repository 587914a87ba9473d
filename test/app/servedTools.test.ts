/**
 * `createModelInputServer({ tools })`: shipped tools by name and model tools on one shared kit, over the HTTP front
 * (in-process): both listed, explain_file answered on each route, and assembly errors caught before serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import explainFile from '../../examples/explainFile.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta, type RawChannel } from '../helpers/rawChannel.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

function serverWith(model: string, tools = ['summarize_repo', explainFile] as const) {
  return createModelInputServer({
    root: repo.root,
    tools,
    models: parseModelSpec(model),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: ANONYMOUS,
  });
}

function channelFor(model: string): RawChannel {
  const front = createModelInputHttpFront(serverWith(model), {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
  });
  return httpChannel(front);
}

const call = (id: number, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'explain_file', arguments: { path: 'src/index.ts' }, _meta: meta(capabilities), ...extra },
});

describe('a server of several tools on one kit', () => {
  it('lists the shipped tool and the model tool', async () => {
    const channel = channelFor('host,builtin');
    const reply = await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    expect(reply.message?.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'explain_file',
      'summarize_repo',
    ]);
    await channel.close();
  });

  it('serves explain_file inline without sampling, and over an MRTR round with it', async () => {
    const channel = channelFor('host,builtin');
    const inline = await channel.send(call(1, {}));
    expect(inline.message?.result.content[0].text).toContain('(answered by: builtin)');
    const round = await channel.send(call(2, { sampling: {} }));
    const asked = round.message?.result;
    expect(asked.resultType).toBe('input_required');
    expect(Object.keys(asked.inputRequests)).toEqual(['explain']);
    const answer = { role: 'assistant', content: { type: 'text', text: 'It charts CSV.' }, model: 'm' };
    const done = await channel.send(
      call(3, { sampling: {} }, { inputResponses: { explain: answer }, requestState: asked.requestState }),
    );
    expect(done.message?.result.content[0].text).toBe('It charts CSV.\n\n(answered by: host)');
    // Single use, as for every tool: the same state again is refused.
    const again = await channel.send(
      call(4, { sampling: {} }, { inputResponses: { explain: answer }, requestState: asked.requestState }),
    );
    expect(again.message?.error.code).toBe(-32602);
    await channel.close();
  });

  it('--model host alone: a client without sampling gets -32021 naming the step', async () => {
    const channel = channelFor('host');
    const reply = await channel.send(call(1, {}));
    expect(reply.message?.error.code).toBe(-32021);
    expect(reply.message?.error.message).toContain("step 'explain'");
    await channel.close();
  });

  it('summarize keeps its per-step grammar next to TOOL.STEP', async () => {
    const channel = channelFor('pick=builtin,summary=builtin,explain_file.explain=host');
    const round = await channel.send(call(1, { sampling: {} }));
    expect(round.message?.result.resultType).toBe('input_required');
    await channel.close();
  });

  it('refuses at assembly: two tools of one name, an unknown shipped tool, a TOOL.STEP for no served tool', () => {
    expect(() => serverWith('builtin', [explainFile, explainFile] as never)).toThrow(
      "two served tools are named 'explain_file'",
    );
    expect(() => serverWith('builtin', ['ask_anything'] as never)).toThrow("unknown shipped tool 'ask_anything'");
    expect(() => serverWith('builtin,nope.step=host')).toThrow("no served tool is named 'nope'");
  });
});
