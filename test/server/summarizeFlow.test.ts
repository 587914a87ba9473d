/**
 * The three-round `summarize_repo` flow on the wire, over stdio and HTTP, driven by raw
 * JSON-RPC so every round's shape, id and state echo is under the test's control. Both in-process: `serve --stdio`
 * run by `main(argv, io)`, the HTTP front's `fetch` (the wire over a real `serve --stdio` process is
 * test/server/wire.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { inProcessStdioChannel } from '../helpers/cliIo.js';
import { httpChannel, meta, type RawChannel } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';
import { flipByte } from '../state/stateFixtures.js';

const SAMPLING = { sampling: {} };
let repo: Awaited<ReturnType<typeof makeSampleRepo>>;

beforeAll(async () => {
  repo = await makeSampleRepo();
  await writeFile(join(repo.root, 'docs', 'big.md'), `# Big\n\n${'lorem ipsum dolor sit amet\n'.repeat(2000)}`);
});
afterAll(async () => {
  await repo.cleanup();
});

export function answer(text: string): Record<string, unknown> {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' };
}

describe.each(['stdio', 'http'] as const)('summarize_repo rounds over %s', (kind) => {
  let channel: RawChannel;
  let nextId = 100;
  const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}, capabilities = SAMPLING) =>
    channel.send({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: args, _meta: meta(capabilities), ...extra },
    });

  beforeAll(() => {
    channel =
      kind === 'stdio'
        ? inProcessStdioChannel(['--root', repo.root, '--model', 'host', '--quiet'])
        : httpChannel(createTestFront({ root: repo.root }));
  });
  afterAll(async () => {
    await channel.close();
  });

  it('5-7. pick, read and summarize across three rounds with fresh ids and echoed state', async () => {
    const args = { audience: 'developer', maxFiles: 3 };
    const first = await call(args);
    const round1 = first.message?.['result'];
    expect(round1.resultType).toBe('input_required');
    expect(round1.ttlMs).toBeUndefined();
    expect(Object.keys(round1.inputRequests)).toEqual(['pick_files']);
    const pick = round1.inputRequests.pick_files;
    expect(pick.method).toBe('sampling/createMessage');
    const pickText: string = pick.params.messages[0].content.text;
    expect(pickText).toMatch(/^README\.md\t\d+$/m);
    expect(pickText).toMatch(/^package\.json\t\d+$/m);
    expect(pickText).toContain('at most 3 files');
    expect(pickText).toContain('JSON array');
    for (const hidden of ['secret.env', 'build/out.js', 'logo.png', 'escape.txt'])
      expect(pickText).not.toContain(hidden);
    expect(typeof pick.params.systemPrompt).toBe('string');
    expect(pick.params.modelPreferences).toStrictEqual({ costPriority: 0.8, intelligencePriority: 0.2 });
    expect(pick.params.maxTokens).toBeGreaterThan(0);
    expect([undefined, 'none']).toContain(pick.params.includeContext);
    expect(typeof round1.requestState).toBe('string');

    const pickAnswer =
      '```json\n["README.md", "../etc/passwd", "/etc/passwd", "secret.env", "missing.txt", "escape.txt", "docs/big.md", 7]\n```';
    const second = await call(args, {
      inputResponses: { pick_files: answer(pickAnswer), unrelated: answer('ignored') },
      requestState: round1.requestState,
    });
    const round2 = second.message?.['result'];
    expect(round2.resultType).toBe('input_required');
    expect(Object.keys(round2.inputRequests)).toEqual(['summary']);
    const summary = round2.inputRequests.summary;
    expect(summary.method).toBe('sampling/createMessage');
    const summaryText: string = summary.params.messages[0].content.text;
    expect(summaryText).toContain('<<<FILE path="README.md"');
    expect(summaryText).toContain('Sample Widget turns CSV files into charts');
    expect(summaryText).toMatch(/<<<FILE path="docs\/big\.md" bytes=\d+ truncated=true>>>/);
    expect(summaryText).toMatch(/\[… truncated: showing \d+ of \d+ bytes\]/);
    expect(summaryText).not.toContain('do-not-read');
    expect(summaryText).not.toContain('outside the root');
    expect(summary.params.modelPreferences).toStrictEqual({ costPriority: 0.2, intelligencePriority: 0.8 });
    expect(summary.params.maxTokens).toBeGreaterThan(0);
    expect(round2.requestState).not.toBe(round1.requestState);

    const third = await call(args, {
      inputResponses: { summary: answer('Sample Widget: a CSV to chart CLI.') },
      requestState: round2.requestState,
    });
    const done = third.message?.['result'];
    expect(done.resultType).toBe('complete');
    expect(done.isError).toBe(false);
    expect(done.content[0]).toStrictEqual({ type: 'text', text: 'Sample Widget: a CSV to chart CLI.' });
    expect(done.structuredContent.picked).toStrictEqual(['README.md', 'docs/big.md']);
    expect(done.structuredContent.summary).toBe('Sample Widget: a CSV to chart CLI.');
    expect(done.structuredContent.model).toBe('test-model');
    expect(done.structuredContent.dropped).toEqual(
      expect.arrayContaining([
        '../etc/passwd',
        '/etc/passwd',
        'secret.env (secret file: never read)',
        'missing.txt',
        'escape.txt',
      ]),
    );
    const big = done.structuredContent.files.find((f: { path: string }) => f.path === 'docs/big.md');
    expect(big.truncated).toBe(true);
    const reasons = done.structuredContent.skipped.map((s: { reason: string }) => s.reason);
    expect(reasons).toEqual(expect.arrayContaining(['ignored', 'binary', 'symlink_outside_root']));
  });

  it('6. unusable pick answers are -32602', async () => {
    for (const text of ['the readme, please', '{"files":["README.md"]}', '["nope.md", "../../x"]']) {
      const first = await call({});
      const reply = await call(
        {},
        { inputResponses: { pick_files: answer(text) }, requestState: first.message?.['result'].requestState },
      );
      expect(reply.message?.['error']?.code).toBe(-32602);
    }
    const first = await call({});
    const requestState = first.message?.['result'].requestState;
    const malformed: unknown[] = [
      { pick_files: { role: 'user' } },
      { pick_files: null },
      { pick_files: '["README.md"]' },
      { pick_files: { method: 'sampling/createMessage', result: answer('["README.md"]') } },
      'garbage',
      [answer('["README.md"]')],
      null,
    ];
    for (const inputResponses of malformed) {
      const reply = await call({}, { inputResponses, requestState });
      expect(reply.message?.['error']?.code, JSON.stringify(inputResponses)).toBe(-32602);
    }
  });

  it('8. a missing input response is asked for again, up to the round limit', async () => {
    let state = (await call({ maxFiles: 2 })).message?.['result'].requestState as string;
    let asked = 1;
    for (;;) {
      const reply = await call({ maxFiles: 2 }, { requestState: state });
      if (reply.message?.['error'] !== undefined) {
        expect(reply.message['error'].code).toBe(-32602);
        expect(reply.message['error'].message).toContain('round limit');
        break;
      }
      expect(reply.message?.['result'].resultType).toBe('input_required');
      expect(Object.keys(reply.message?.['result'].inputRequests)).toEqual(['pick_files']);
      state = reply.message?.['result'].requestState;
      asked += 1;
      expect(asked).toBeLessThanOrEqual(6);
    }
    expect(asked).toBe(6);
  });

  it('rejects changed arguments, tampered and foreign state with -32602 and a fixed message', async () => {
    const first = await call({ audience: 'developer' });
    const state: string = first.message?.['result'].requestState;
    const changed = await call(
      { audience: 'executive' },
      { inputResponses: { pick_files: answer('["README.md"]') }, requestState: state },
    );
    expect(changed.message?.['error']).toMatchObject({ code: -32602, message: REJECTED_STATE_MESSAGE });

    // One bit of the ciphertext changed: always a different token (a character swap could be a no-op).
    const flipped = flipByte(state, 3, () => 0);
    expect(flipped).not.toBe(state);
    for (const bad of [flipped, 'not-a-state', 'x'.repeat(10_000)]) {
      const reply = await call(
        { audience: 'developer' },
        { inputResponses: { pick_files: answer('["README.md"]') }, requestState: bad },
      );
      expect(reply.message?.['error']).toMatchObject({ code: -32602, message: REJECTED_STATE_MESSAGE });
    }
  });
});

describe('summarize_repo ordering', () => {
  it('4. the capability check comes before any repository work', async () => {
    // Even with the root gone, a request without sampling is refused for the capability, not the root.
    const gone = await makeSampleRepo();
    await gone.cleanup();
    const other = httpChannel(createTestFront({ root: gone.root }));
    const call = (id: number, capabilities: Record<string, unknown>) =>
      other.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta(capabilities) },
      });
    expect((await call(1, {})).message?.['error']?.code).toBe(-32021);
    const withSampling = await call(2, SAMPLING);
    expect(withSampling.message?.['result'].isError).toBe(true);
    expect(withSampling.message?.['result'].content[0].text).not.toContain(gone.root);
    await other.close();
  });
});
