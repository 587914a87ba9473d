/**
 * Explore mode, part of `npm run bench` (`--only explore` alone; printed, not recorded):
 *  - the tool loop at its maximum length over MRTR (12 tool calls in 4 exploring rounds, then the final round with
 *    tools disabled), in-process through the HTTP handler's `fetch`: sealed state bytes and server time per round,
 *    on the 12-entry sample and on the generated 100,000-file tree. Each round rebuilds the conversation by running
 *    the logged calls again, so its time grows with the round; that growth is the figure to watch;
 *  - explore against pick on the 100,000-file tree, each driven by the built-in model as the host's model: files
 *    whose names the model was shown, files whose contents it was shown, bytes of sampling requests sent to it.
 * BENCH_EXPLORE_RUNS (default 5) loops per tree; medians. Timings are never asserted.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/server';

import { createBuiltinModel } from '../src/flows/summarizeRepo/builtin/model.js';
import { ensureLargeRepo } from '../scripts/generateLargeRepo.js';
import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { mcpRequest } from '../test/helpers/rawChannel.js';
import { createTestFront } from '../test/helpers/servers.js';
import { answerOf, type ScriptedTurn } from '../test/helpers/toolModel.js';

const DATA = process.env['BENCH_DATA_DIR'] ?? path.join(os.tmpdir(), 'mcp-model-input-bench');
const FILES = Number(process.env['BENCH_SCALE_FILES'] ?? 100_000);
const RUNS = Number(process.env['BENCH_EXPLORE_RUNS'] ?? 5);
const CAPABILITIES = { sampling: { tools: {} } };

type Front = ReturnType<typeof createTestFront>;
let nextId = 1;

interface Round {
  ms: number;
  stateBytes: number;
  params?: CreateMessageRequestParams;
  /** The final result (last round only). */
  result?: Record<string, any>;
}

/** Plays the host for one summarize_repo call: every round's server time, state size and request. */
async function drive(
  front: Front,
  args: Record<string, unknown>,
  answer: (
    params: CreateMessageRequestParams,
    turn: number,
  ) => Promise<CreateMessageResult | CreateMessageResultWithTools>,
): Promise<Round[]> {
  const rounds: Round[] = [];
  let extra: Record<string, unknown> = {};
  for (let turn = 0; turn < 30; turn++) {
    const start = performance.now();
    const response = await front.fetch(
      mcpRequest('http://localhost/mcp', {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: {
          name: 'summarize_repo',
          arguments: args,
          ...extra,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
          },
        },
      }),
    );
    const body = (await response.json()) as { result?: any; error?: unknown };
    const ms = performance.now() - start;
    if (body.result === undefined) throw new Error(`round failed: ${JSON.stringify(body.error)}`);
    if (body.result.resultType !== 'input_required') {
      rounds.push({ ms, stateBytes: 0, result: body.result });
      return rounds;
    }
    const [key, request] = Object.entries(body.result.inputRequests as Record<string, { params: any }>)[0]!;
    rounds.push({ ms, stateBytes: String(body.result.requestState).length, params: request.params });
    extra = {
      requestState: body.result.requestState,
      inputResponses: { [key]: await answer(request.params, turn) },
    };
  }
  throw new Error('the call did not end within 30 rounds');
}

/** The loop at its maximum: 3 calls per round, 12 in 4 rounds (lists, reads, fixed and regex searches). */
const MAX_SCRIPT: ScriptedTurn[] = [
  {
    text: 'Starting with the top level.',
    calls: [
      { name: 'list_directory', input: {} },
      { name: 'read_file', input: { path: 'README.md' } },
      { name: 'read_file', input: { path: 'package.json' } },
    ],
  },
  {
    text: 'Searching the code.',
    calls: [
      { name: 'search', input: { pattern: 'function' } },
      { name: 'search', input: { pattern: '^import .* from', regex: true } },
      { name: 'list_directory', input: { path: 'packages' } },
    ],
  },
  {
    calls: [
      { name: 'read_file', input: { path: 'src/index.ts', maxLines: 400 } },
      { name: 'search', input: { pattern: 'main' } },
      { name: 'list_directory', input: { path: 'src' } },
    ],
  },
  {
    calls: [
      { name: 'search', input: { pattern: 'export' } },
      { name: 'read_file', input: { path: 'packages/pkg-000/README.md' } },
      { name: 'list_directory', input: { path: 'docs' } },
    ],
  },
];

/** The script with `salt` in every search pattern: a new salt makes every search new (nothing kept). */
function salted(turn: ScriptedTurn | undefined, salt: string): ScriptedTurn {
  if (turn === undefined || !('calls' in turn)) return { summary: 'Summary.' };
  return {
    ...turn,
    calls: (turn.calls ?? []).map((call) =>
      call.name === 'search'
        ? { ...call, input: { ...call.input, pattern: `${String(call.input['pattern'])}${salt}` } }
        : call,
    ),
  };
}

let salts = 0;
/** One loop at the maximum; `fresh`: its searches were never made before (the listing and reads may be kept). */
async function maxLoop(front: Front, fresh: boolean): Promise<Round[]> {
  const salt = fresh ? ` ${++salts}` : '';
  return drive(front, { mode: 'explore' }, async (params, turn) =>
    answerOf(
      params.toolChoice?.mode === 'none' ? { summary: 'Summary.' } : salted(MAX_SCRIPT[turn], salt),
      turn,
      'bench',
    ),
  );
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** What a model was shown over one call: names of files and directories, files read, request bytes. */
function shown(rounds: Round[], result: Record<string, any>): Record<string, number> {
  let bytes = 0;
  let largest = 0;
  let entries = 0;
  for (const round of rounds) {
    if (round.params === undefined) continue;
    const size = bytesOf(round.params);
    bytes += size;
    largest = Math.max(largest, size);
  }
  // Explore: the entries of every list_directory result (the final request holds them all).
  const last = rounds.filter((round) => round.params !== undefined).at(-1)?.params;
  for (const message of last?.messages ?? []) {
    for (const block of (Array.isArray(message.content) ? message.content : [message.content]) as any[]) {
      if (block?.type !== 'tool_result') continue;
      const text = (block.content as Array<{ text: string }>).map((part) => part.text).join('\n');
      if (text.startsWith('Directory ')) entries += text.split('\n').length - 1;
    }
  }
  const structured = result['structuredContent'] ?? {};
  return {
    requests: rounds.filter((round) => round.params !== undefined).length,
    names: structured.mode === 'explore' ? entries : (structured.candidates?.listed ?? 0),
    contents: (structured.files ?? []).length,
    bytes,
    largest,
  };
}

export async function benchExplore(): Promise<void> {
  const large = await ensureLargeRepo(DATA, FILES);
  const small = await makeSampleRepo();
  const fronts = { small: createTestFront({ root: small.root }), large: createTestFront({ root: large.root }) };
  try {
    await maxLoop(fronts.small, false);
    await maxLoop(fronts.large, false);
    for (const fresh of [true, false]) {
      const runs = { small: [] as Round[][], large: [] as Round[][] };
      for (let i = 0; i < RUNS; i++) {
        for (const size of ['small', 'large'] as const) runs[size].push(await maxLoop(fronts[size], fresh));
      }
      console.log(
        `\nExplore loop at its maximum length (12 tool calls, 5 rounds), ${fresh ? 'every search new' : 'the same loop again (results kept)'}, median of ${RUNS} loops`,
      );
      console.log('| round | state bytes | server ms, 12-entry sample | server ms, 100,000 files | ratio |');
      console.log('|---|---:|---:|---:|---:|');
      const count = runs.small[0]?.length ?? 0;
      for (let index = 0; index < count; index++) {
        const a = median(runs.small.map((rounds) => rounds[index]?.ms ?? NaN));
        const b = median(runs.large.map((rounds) => rounds[index]?.ms ?? NaN));
        const state = Math.max(...runs.large.map((rounds) => rounds[index]?.stateBytes ?? 0));
        const label = index === count - 1 ? `${index + 1} (final answer taken)` : `${index + 1}`;
        console.log(`| ${label} | ${state || '—'} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)}x |`);
      }
    }

    const builtin = createBuiltinModel();
    const hostModel = (params: CreateMessageRequestParams, turn: number) =>
      builtin.complete({ key: turn === 0 ? 'pick_files' : 'summary', params });
    const pick = await drive(fronts.large, { maxFiles: 3 }, hostModel);
    const explore = await drive(fronts.large, { mode: 'explore' }, hostModel);
    console.log(
      `\nExplore against pick on the ${FILES.toLocaleString('en')}-file tree (the built-in model as the host's)`,
    );
    console.log(
      '| mode | sampling requests | paths shown (pick: candidates; explore: directory entries) | files read | bytes sent to the model, all requests | largest request |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [mode, rounds] of [
      ['pick', pick],
      ['explore', explore],
    ] as const) {
      const s = shown(rounds, rounds.at(-1)?.result ?? {});
      console.log(
        `| ${mode} | ${s['requests']} | ${s['names']} | ${s['contents']} | ${s['bytes']} | ${s['largest']} |`,
      );
    }
  } finally {
    await fronts.small.close();
    await fronts.large.close();
    await small.cleanup();
  }
}
