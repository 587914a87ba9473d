/**
 * Rounds at scale, part of `npm run bench` (`--only scale` alone): server time of a repeated first round and
 * of round 2 of `summarize_repo` on the generated 100,000-file tree against the same on the 12-entry sample
 * repository, interleaved, in-process through the HTTP handler's `fetch`. Round 2 judges the picked paths one by
 * one (no listing); a repeated first round is served by the survey cache while the tree's watch saw no change.
 * BENCH_SCALE_CALLS (default 30) pairs of rounds per tree. Timings are never asserted.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { ensureLargeRepo } from '../scripts/generateLargeRepo.js';
import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { mcpRequest } from '../test/helpers/rawChannel.js';
import { createTestFront } from '../test/helpers/servers.js';
import { benchCommand, record } from './figures.js';

const DATA = process.env['BENCH_DATA_DIR'] ?? path.join(os.tmpdir(), 'mcp-model-input-bench');
const FILES = Number(process.env['BENCH_SCALE_FILES'] ?? 100_000);
const CALLS = Number(process.env['BENCH_SCALE_CALLS'] ?? 30);
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
const ARGS = { audience: 'developer', maxFiles: 3 };
const PICK = '["README.md","package.json"]';

type Front = ReturnType<typeof createTestFront>;
let nextId = 1;

async function call(front: Front, params: Record<string, unknown>): Promise<[number, any]> {
  const start = performance.now();
  const response = await front.fetch(
    mcpRequest('http://localhost/mcp', {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: ARGS, ...params, _meta: META },
    }),
  );
  const body = (await response.json()) as { result?: any; error?: unknown };
  const ms = performance.now() - start;
  if (body.result?.resultType !== 'input_required') throw new Error(`round failed: ${JSON.stringify(body)}`);
  return [ms, body.result];
}

/** Round 1 then round 2 (answering the pick); returns both server times. */
async function rounds(front: Front): Promise<[number, number]> {
  const [first, result] = await call(front, {});
  const [second] = await call(front, {
    requestState: result.requestState,
    inputResponses: { pick_files: { role: 'assistant', content: { type: 'text', text: PICK }, model: 'bench' } },
  });
  return [first, second];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

export async function benchRoundsAtScale(): Promise<void> {
  const large = await ensureLargeRepo(DATA, FILES);
  const small = await makeSampleRepo();
  const fronts = { small: createTestFront({ root: small.root }), large: createTestFront({ root: large.root }) };
  try {
    const firstLarge = (await rounds(fronts.large))[0];
    // The watch of the large tree is set up after its first survey, in the background; let it finish.
    for (let i = 0; i < 5; i++) {
      await rounds(fronts.small);
      await rounds(fronts.large);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const times = { small: [[], []] as number[][], large: [[], []] as number[][] };
    for (let i = 0; i < CALLS; i++) {
      for (const size of ['small', 'large'] as const) {
        const [first, second] = await rounds(fronts[size]);
        times[size][0]?.push(first);
        times[size][1]?.push(second);
      }
    }
    console.log(`\nRounds at scale: server time, median of ${CALLS} interleaved flows (ms)`);
    console.log('| exchange | 12-entry sample | 100,000 files | ratio | goal |');
    console.log('|---|---:|---:|---:|---|');
    const row = (label: string, index: number): void => {
      const a = median(times.small[index] ?? []);
      const b = median(times.large[index] ?? []);
      console.log(`| ${label} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)}x | ≤ 2x |`);
      record({
        part: 'scale',
        name: `${label} on ${FILES.toLocaleString('en-US')} files, server time`,
        against: 'the same round on the 12-entry sample',
        value: b,
        baseline: a,
        unit: 'ms',
        command: benchCommand('scale'),
        meaning:
          index === 0
            ? 'A repeated first round on an unchanged tree is served from the survey cache: near 1x, the tree size does not show.'
            : 'Round 2 judges only the picked paths: near 1x, its cost does not grow with the tree.',
      });
    };
    row('round 1, repeated (unchanged tree)', 0);
    row('round 2 (pick answered)', 1);
    console.log(`| (round 1, first in the process) | — | ${firstLarge.toFixed(0)} | — | — |`);
  } finally {
    await fronts.small.close();
    await fronts.large.close();
    await small.cleanup();
  }
}
