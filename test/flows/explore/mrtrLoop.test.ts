/**
 * The explore loop over MRTR on the HTTP front, with the test as the host: each round is an `input_required`
 * whose `sampling/createMessage` offers the tools; the sealed state carries only the call log and stays under its
 * cap at the loop's maximum length; clients without `sampling.tools` get -32021 naming it.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_MAX_STATE_TOKEN_BYTES } from '../../../src/state/codec.js';
import { makeSampleRepo, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { httpChannel, meta, type RawChannel } from '../../helpers/rawChannel.js';
import { createTestFront } from '../../helpers/servers.js';
import { answerOf, lastResults, type ScriptedTurn } from '../../helpers/toolModel.js';

let repo: FixtureRepo & { outside: FixtureRepo };
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const WITH_TOOLS = { sampling: { tools: {} } };

interface Drive {
  result?: Record<string, any>;
  error?: Record<string, any>;
  requests: CreateMessageRequestParams[];
  states: string[];
}

/** Plays the host: answers every explore round with the script, echoing the state, until the call completes. */
async function drive(
  channel: RawChannel,
  script: (params: CreateMessageRequestParams, turn: number) => ScriptedTurn,
  capabilities: Record<string, unknown> = WITH_TOOLS,
): Promise<Drive> {
  const params = { name: 'summarize_repo', arguments: { mode: 'explore' }, _meta: meta(capabilities) };
  const requests: CreateMessageRequestParams[] = [];
  const states: string[] = [];
  let extra: Record<string, unknown> = {};
  for (let id = 1; id <= 20; id++) {
    const reply = await channel.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, ...extra } });
    const message = reply.message!;
    if (message['error'] !== undefined) return { error: message['error'], requests, states };
    const result = message['result'];
    if (result.resultType !== 'input_required') return { result, requests, states };
    const asked = result.inputRequests.explore;
    expect(asked.method).toBe('sampling/createMessage');
    requests.push(asked.params);
    states.push(result.requestState);
    const answer: CreateMessageResult = answerOf(
      script(asked.params, requests.length - 1),
      requests.length - 1,
      'host-model',
    );
    extra = { requestState: result.requestState, inputResponses: { explore: answer } };
  }
  throw new Error('the loop did not end within 20 requests');
}

describe('explore over MRTR', () => {
  it('runs the loop in rounds: each asks with tools and toolChoice, the retry answers with tool_use blocks', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const run = await drive(channel, (_params, turn) =>
      turn === 0
        ? {
            calls: [
              { name: 'list_directory', input: {} },
              { name: 'read_file', input: { path: 'README.md' } },
            ],
          }
        : turn === 1
          ? { calls: [{ name: 'search', input: { pattern: 'chart', path: 'src' } }] }
          : { summary: 'Sample Widget: CSV to charts.' },
    );
    expect(run.error).toBeUndefined();
    expect(run.requests).toHaveLength(3);
    expect(run.requests.map((params) => params.toolChoice)).toEqual([
      { mode: 'auto' },
      { mode: 'auto' },
      { mode: 'auto' },
    ]);
    expect(lastResults(run.requests[1]!).map((result) => result.toolUseId)).toEqual(['t0_0', 't0_1']);
    expect(lastResults(run.requests[2]!)[0]!.text).toContain('src/index.ts:1: export function chart');
    // The state carries the call log, never a file's contents: it does not grow with what was read.
    expect(run.states.every((state) => state.length < 2048)).toBe(true);
    const out = run.result!.structuredContent;
    expect(out.mode).toBe('explore');
    expect(out.model).toBe('host-model');
    expect(out.exploration.calls.map((call: { tool: string }) => call.tool)).toEqual([
      'list_directory',
      'read_file',
      'search',
    ]);
    await channel.close();
  });

  it('keeps the sealed state under its cap at the loop maximum (12 calls, 7 over the bound, maximal arguments)', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const path = 'é'.repeat(80); // 160 bytes of UTF-8: the longest path argument
    // 80 bytes as JSON, the longest pattern; each call its own, so none is a repeat.
    const pattern = (turn: number, n: number) => '"'.repeat(38) + `${turn}${n}`;
    const id = (turn: number, n: number) => `${turn}-${n}-`.padEnd(64, 'x');
    const text = '\u0001'.repeat(200);
    const search = (turn: number, n: number) => ({
      name: 'search',
      input: { pattern: pattern(turn, n), regex: false, path },
      id: id(turn, n),
    });
    const run = await drive(channel, (params, turn) =>
      params.toolChoice?.mode === 'none'
        ? { summary: 'Done.' }
        : { text, calls: Array.from({ length: turn === 1 ? 3 : 8 }, (_, n) => search(turn, n)) },
    );
    expect(run.error).toBeUndefined();
    const out = run.result!.structuredContent;
    expect(out.exploration.endedBy).toBe('tool_calls');
    expect(out.exploration.calls).toHaveLength(19);
    expect(out.exploration.calls.filter((call: { error?: string }) => call.error === 'over_bound')).toHaveLength(7);
    const largest = Math.max(...run.states.map((state) => state.length));
    expect(largest).toBeLessThanOrEqual(DEFAULT_MAX_STATE_TOKEN_BYTES);
    // The call log grows each round; at the loop maximum it outgrows the journal's inline budget and spills to the
    // store (kit/journal.ts): the last token carries its digest instead.
    expect(run.states.at(-1)!.length).toBeLessThan(1024);
    await channel.close();
  });

  it('answers hostile calls with isError tool_results, and ends a model that lists one directory forever', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const hostile = [
      { name: 'read_file', input: { path: '../../etc/passwd' } },
      { name: 'read_file', input: { path: '/etc/passwd' } },
      { name: 'read_file', input: { path: 'escape.txt' } },
      { name: 'read_file', input: { path: 'secret.env' } },
    ];
    const run = await drive(channel, (params, turn) =>
      params.toolChoice?.mode === 'none'
        ? { summary: 'Done.' }
        : turn === 0
          ? { calls: hostile }
          : { calls: [{ name: 'list_directory', input: { path: 'src' } }] },
    );
    expect(run.error).toBeUndefined();
    const results = lastResults(run.requests[1]!);
    expect(results.map((result) => result.isError)).toEqual([true, true, true, true]);
    expect(JSON.stringify(run.requests)).not.toContain('outside the root');
    expect(JSON.stringify(run.requests)).not.toContain('do-not-read');
    const out = run.result!.structuredContent;
    expect(out.exploration.calls.slice(0, 4).map((call: { error: string }) => call.error)).toEqual([
      'outside_root',
      'outside_root',
      'symlink_outside_root',
      'secret_file',
    ]);
    expect(out.exploration.endedBy).toBe('repeats');
    await channel.close();
  });

  it('refuses a client that declares sampling without sampling.tools with -32021 naming it', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const run = await drive(channel, () => ({ summary: 'x' }), { sampling: {} });
    expect(run.error?.code).toBe(-32021);
    expect(run.error?.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
    expect(run.error?.message).toContain('sampling.tools');
    const none = await drive(channel, () => ({ summary: 'x' }), {});
    expect(none.error?.code).toBe(-32021);
    await channel.close();
  });

  it('serves such a client on the next source of the plan (host,builtin): the built-in explorer, inline', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host,builtin' }));
    const run = await drive(channel, () => ({ summary: 'never asked' }), { sampling: {} });
    expect(run.requests).toHaveLength(0);
    expect(run.result?.structuredContent.model).toBe('mcp-model-input/builtin-heuristic');
    expect(run.result?.structuredContent.exploration.calls.length).toBeGreaterThan(1);
    await channel.close();
  });

  it('answers tool_use ids that do not pair with -32602 (the host answer is the client input)', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    const run = await drive(channel, () => ({
      calls: [
        { name: 'list_directory', input: {}, id: 'dup' },
        { name: 'list_directory', input: { path: 'src' }, id: 'dup' },
      ],
    }));
    expect(run.error?.code).toBe(-32602);
    expect(JSON.stringify(run.error)).toContain('used twice');
    await channel.close();
  });

  it('stops a host model that keeps calling tools once they are disabled (-32602, never another round)', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root, model: 'host' }));
    let n = 0;
    const run = await drive(channel, () => ({ calls: [{ name: 'search', input: { pattern: `p${n++}` } }] }));
    expect(run.error?.code).toBe(-32602);
    expect(run.requests.at(-1)!.toolChoice).toEqual({ mode: 'none' });
    expect(run.requests).toHaveLength(6);
    await channel.close();
  });
});
