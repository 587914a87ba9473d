/**
 * `npm run bench`: every figure beside a baseline measured in the same run, written to `bench/results/latest.json`
 * (and a recorded copy beside it) and rendered into `docs/performance.md` (bench/render.ts). Parts, in order (each
 * file says what it measures; `npm run bench -- --only PART,…` runs a subset and the JSON records which):
 *  - startup (bench/startup.ts): the built CLI as whole processes (`npm run build` first);
 *  - rounds: server time per MRTR exchange, our server against a minimal McpServer + the SDK's HMAC codec;
 *  - codec: our AES-256-GCM seal/open against the SDK's createRequestStateCodec mint/verify;
 *  - scale (bench/roundsAtScale.ts): rounds on the 100,000-file tree against the 12-entry sample;
 *  - repo (bench/repoScale.ts): listing a 100,000-file tree against `git ls-files`, the pick prompt's size;
 *  - secrets (bench/secretScan.ts): a summarize_repo call with and without the deny list and the redactor;
 *  - redact (bench/redactCost.ts): the redactor's work and time at n and 4n characters of its worst inputs;
 *  - tasks (bench/tasks.ts): a summarize_repo task (creation and polls) against a plain call;
 *  - kit (bench/summarizeKit.ts): summarize_repo as served, per round, against the same calls on the flow engine;
 *  - explore (bench/explore.ts) and fleet (bench/fleet.ts; needs redis-server and nginx): printed only.
 * `npm run bench -- --render` re-renders the page from the JSON without running anything.
 * Timings are medians of bounded iteration counts; never assert them in tests.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import {
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  McpServer,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import { keptScans } from '../src/repo/secrets/scanner.js';
import { keptCounts } from '../src/repo/tokens.js';
import { createStateCodec, createEphemeralKeyRing, digestArguments } from '../src/state/index.js';
import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { benchExplore } from './explore.js';
import { benchCommand, LATEST, machine, record, recordedFigures, runFileName, type BenchResults } from './figures.js';
import { benchRedactCost } from './redactCost.js';
import { PERFORMANCE_PAGE, renderPerformanceFile, writeResults } from './render.js';
import { benchFleet } from './fleet.js';
import { benchRepoScale } from './repoScale.js';
import { benchRoundsAtScale } from './roundsAtScale.js';
import { benchFirstCalls, benchStartup } from './startup.js';
import { benchSecretScan } from './secretScan.js';
import { benchSummarizeKit } from './summarizeKit.js';
import { benchTasks } from './tasks.js';
import { mcpRequest } from '../test/helpers/rawChannel.js';
import { createTestFront } from '../test/helpers/servers.js';

const FLOWS = Number(process.env['BENCH_FLOWS'] ?? 200);
const CODEC_OPS = Number(process.env['BENCH_CODEC_OPS'] ?? 5000);
/** The codec part's operations are timed in this many alternating batches per side. */
const CODEC_BATCHES = 20;
const WARMUP = 20;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
type Fetcher = { fetch(request: Request): Promise<Response> };

let nextId = 1;
async function rpc(target: Fetcher, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const response = await target.fetch(
    mcpRequest('http://localhost/mcp', {
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: META },
    }),
  );
  const body = (await response.json()) as { result?: any; error?: unknown };
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'bench' });

/**
 * The steps timed per flow: discover, list, and the three tools/call rounds. `beforeRound2` runs untimed just before
 * round 2 (the run that forgets the kept scans and counts).
 */
async function flow(
  target: Fetcher,
  tool: string,
  pickText: string,
  times: number[][],
  beforeRound2?: () => void,
): Promise<void> {
  const args = { audience: 'developer', maxFiles: 3 };
  const steps: Array<() => Promise<unknown>> = [];
  let state: string | undefined;
  steps.push(() => rpc(target, 'server/discover'));
  steps.push(() => rpc(target, 'tools/list'));
  steps.push(async () => (state = (await rpc(target, 'tools/call', { name: tool, arguments: args })).requestState));
  steps.push(
    async () =>
      (state = (
        await rpc(target, 'tools/call', {
          name: tool,
          arguments: args,
          requestState: state,
          inputResponses: { pick_files: answer(pickText) },
        })
      ).requestState),
  );
  steps.push(() =>
    rpc(target, 'tools/call', {
      name: tool,
      arguments: args,
      requestState: state,
      inputResponses: { summary: answer('A summary.') },
    }),
  );
  for (const [index, step] of steps.entries()) {
    if (index === 3) beforeRound2?.();
    const start = performance.now();
    await step();
    times[index]?.push(performance.now() - start);
  }
}

function baselineHandler(): McpHttpHandler {
  const codec = createRequestStateCodec<{ phase: string; picked?: string[] }>({ key: randomBytes(32) });
  const hints = { ttlMs: 300_000, cacheScope: 'public' as const };
  return createMcpHandler(
    () => {
      const server = new McpServer(
        { name: 'baseline', version: '1.0.0' },
        { cacheHints: { 'tools/list': hints, 'server/discover': hints }, requestState: { verify: codec.verify } },
      );
      server.registerTool(
        'summarize_repo',
        { inputSchema: z.object({ audience: z.string().optional(), maxFiles: z.number().int().default(3) }) },
        async (_args, ctx) => {
          const state = ctx.mcpReq.requestState<{ phase: string; picked?: string[] }>();
          const responses = ctx.mcpReq.inputResponses ?? {};
          const message = (text: string) => ({
            messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
            maxTokens: 400,
          });
          if (state === undefined) {
            return inputRequired({
              inputRequests: { pick_files: inputRequired.createMessage(message('pick')) },
              requestState: await codec.mint({ phase: 'pick' }),
            });
          }
          if (state.phase === 'pick' && responses['pick_files'] !== undefined) {
            return inputRequired({
              inputRequests: { summary: inputRequired.createMessage(message('summarize')) },
              requestState: await codec.mint({ phase: 'summary', picked: ['README.md'] }),
            });
          }
          return { content: [{ type: 'text', text: 'A summary.' }] };
        },
      );
      return server;
    },
    { legacy: 'reject' },
  );
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function benchRounds(): Promise<void> {
  const repo = await makeSampleRepo();
  const ours = createTestFront({ root: repo.root });
  const baseline = baselineHandler();
  const labels = ['server/discover', 'tools/list', 'round 1 (pick_files)', 'round 2 (summary)', 'round 3 (complete)'];
  const oursTimes = labels.map(() => [] as number[]);
  const baseTimes = labels.map(() => [] as number[]);
  const scratch = labels.map(() => [] as number[]);
  // Every flow here reads the same files and builds the same prompts, so its scans and counts are kept by digest
  // (docs/security.md, docs/repository-reader.md). The last row times round 2 with them forgotten first: a pick of
  // files not read before.
  const fresh = labels.map(() => [] as number[]);
  const forget = (): void => {
    keptScans().clear();
    keptCounts().clear();
  };
  for (let i = 0; i < WARMUP; i++) {
    await flow(ours, 'summarize_repo', '["README.md","package.json"]', scratch);
    await flow(baseline, 'summarize_repo', '["README.md"]', scratch);
  }
  for (let i = 0; i < FLOWS; i++) {
    // Interleaved so machine noise hits both sides alike.
    await flow(ours, 'summarize_repo', '["README.md","package.json"]', oursTimes);
    await flow(baseline, 'summarize_repo', '["README.md"]', baseTimes);
  }
  // Apart, with a baseline of its own: the flows that forget do more work, which must not land in the rows above.
  const freshBase = labels.map(() => [] as number[]);
  for (let i = 0; i < FLOWS; i++) {
    await flow(ours, 'summarize_repo', '["README.md","package.json"]', fresh, forget);
    await flow(baseline, 'summarize_repo', '["README.md"]', freshBase);
  }
  console.log(`\nServer time per exchange, in-process HTTP handler, median of ${FLOWS} flows (ms)`);
  console.log('| exchange | mcp-model-input | baseline (McpServer + SDK codec) | ratio |');
  console.log('|---|---:|---:|---:|');
  labels.forEach((label, index) => {
    const a = median(oursTimes[index] ?? []);
    const b = median(baseTimes[index] ?? []);
    console.log(`| ${label} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(2)}x |`);
  });
  const meanings = [
    'What our envelope gate and server assembly add to the cheapest request.',
    'The same for listing tools.',
    'Round 1 surveys the repository and seals request state; the baseline only mints a token.',
    'Round 2 reads and scans the picked files and builds the summary prompt; the baseline only mints a token.',
    'Round 3 opens the sealed state and returns the summary.',
  ];
  labels.forEach((label, index) =>
    record({
      part: 'rounds',
      name: `${label}, server time`,
      against: 'a minimal SDK `McpServer` and codec',
      value: median(oursTimes[index] ?? []),
      baseline: median(baseTimes[index] ?? []),
      unit: 'ms',
      command: benchCommand('rounds'),
      meaning: meanings[index] ?? '',
    }),
  );
  record({
    part: 'rounds',
    name: 'round 2 on files not read before, server time',
    against: 'the same minimal `McpServer` round',
    value: median(fresh[3] ?? []),
    baseline: median(freshBase[3] ?? []),
    unit: 'ms',
    command: benchCommand('rounds'),
    meaning:
      'Round 2 when no secret scan or token count is kept from an earlier call: the redaction and counting cost.',
  });
  const cold = median(fresh[3] ?? []);
  const base2 = median(freshBase[3] ?? []);
  console.log(
    `| round 2, scans and counts not kept | ${cold.toFixed(3)} | ${base2.toFixed(3)} | ${(cold / base2).toFixed(2)}x |`,
  );
  await ours.close();
  await baseline.close();
  await repo.cleanup();
}

async function benchCodec(): Promise<void> {
  const payload = {
    s: { phase: 'summary', picked: ['README.md', 'package.json', 'src/index.ts'] },
    awaiting: 'summary',
    round: 2,
  };
  const binding = {
    principal: 'anonymous',
    method: 'tools/call',
    tool: 'summarize_repo',
    argumentsDigest: digestArguments({}),
  };
  const ours = createStateCodec<typeof payload>({ keyRing: createEphemeralKeyRing() });
  const sdk = createRequestStateCodec<typeof payload>({ key: randomBytes(32) });
  const ctx = {} as Parameters<typeof sdk.verify>[1];
  type Op = () => unknown | Promise<unknown>;
  /**
   * Both sides in alternating batches (the order swapped each batch) so that machine noise hits them alike; µs per
   * operation, the median of the batches.
   */
  const timePair = async (a: Op, b: Op): Promise<[number, number]> => {
    for (let i = 0; i < 200; i++) {
      await a();
      await b();
    }
    const perBatch = Math.max(1, Math.floor(CODEC_OPS / CODEC_BATCHES));
    const batch = async (op: Op): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) await op();
      return ((performance.now() - start) * 1000) / perBatch;
    };
    const timesA: number[] = [];
    const timesB: number[] = [];
    for (let n = 0; n < CODEC_BATCHES; n++) {
      if (n % 2 === 0) {
        timesA.push(await batch(a));
        timesB.push(await batch(b));
      } else {
        timesB.push(await batch(b));
        timesA.push(await batch(a));
      }
    }
    return [median(timesA), median(timesB)];
  };
  const ourToken = ours.seal(binding, payload);
  const sdkToken = await sdk.mint(payload);
  const rows: Array<[string, number, number]> = [
    [
      'mint / seal',
      ...(await timePair(
        () => ours.seal(binding, payload),
        () => sdk.mint(payload),
      )),
    ],
    [
      'verify / open',
      ...(await timePair(
        () => ours.open(ourToken, binding),
        () => sdk.verify(sdkToken, ctx),
      )),
    ],
  ];
  const codecMeaning = [
    'Sealing request state with AES-256-GCM (encrypted and bound to the caller) against signing it with HMAC.',
    'Opening and checking sealed state against verifying a signed token.',
  ];
  rows.forEach(([label, a, b], index) =>
    record({
      part: 'codec',
      name: `request state: ${label === 'mint / seal' ? 'seal' : 'open'}`,
      against: `the SDK codec's ${label === 'mint / seal' ? 'mint' : 'verify'}`,
      value: a,
      baseline: b,
      unit: 'µs',
      command: benchCommand('codec'),
      meaning: codecMeaning[index] ?? '',
    }),
  );
  console.log(
    `\nRequest-state codec, ${CODEC_OPS} operations per side in ${CODEC_BATCHES} alternating batches (µs per op, median batch)`,
  );
  console.log('| operation | AES-256-GCM (ours) | HMAC-SHA256 (SDK) | ratio | token bytes (ours / SDK) |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [label, a, b] of rows) {
    console.log(
      `| ${label} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(a / b).toFixed(2)}x | ${ourToken.length} / ${sdkToken.length} |`,
    );
  }
}

/** Every part, in the order they run; `fleet` needs redis-server and nginx (it says so and skips without them). */
const PARTS = [
  'startup',
  'rounds',
  'codec',
  'scale',
  'repo',
  'secrets',
  'redact',
  'tasks',
  'kit',
  'explore',
  'fleet',
] as const;
type Part = (typeof PARTS)[number];

async function runPart(part: Part): Promise<void> {
  switch (part) {
    case 'startup':
      return benchStartup();
    case 'rounds':
      return benchRounds();
    case 'codec':
      return benchCodec();
    case 'scale':
      return benchRoundsAtScale();
    case 'repo':
      return benchRepoScale();
    case 'secrets':
      return benchSecretScan();
    case 'redact':
      return benchRedactCost();
    case 'tasks':
      return benchTasks();
    case 'kit':
      return benchSummarizeKit();
    case 'explore':
      return benchExplore();
    case 'fleet':
      return benchFleet();
  }
}

/** `--only a,b` (or BENCH_ONLY=a,b): the parts to run; every part when absent. */
function selectedParts(argv: string[]): Part[] {
  const index = argv.indexOf('--only');
  const list = index >= 0 ? argv[index + 1] : process.env['BENCH_ONLY'];
  if (list === undefined || list === '') return [...PARTS];
  const names = list.split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown bench part(s): ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
  return PARTS.filter((part) => names.includes(part));
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--render')) {
    await renderPerformanceFile();
    return;
  }
  // BENCH_STARTUP=calls: the first-tool-call part alone, this build against BENCH_STARTUP_BEFORE (printed only).
  if (process.env['BENCH_STARTUP'] === 'calls') return benchFirstCalls();
  const parts = selectedParts(argv);
  const date = new Date().toISOString();
  console.log(`node ${process.version}, ${date}, parts: ${parts.join(', ')}`);
  for (const part of parts) await runPart(part);
  const results: BenchResults = {
    kind: 'bench',
    date,
    machine: machine(),
    parts,
    command: [
      // The knobs set for this run (bounded counts, skipped sub-parts) are part of what was run.
      ...Object.entries(process.env)
        .filter(([key]) => key.startsWith('BENCH_') && key !== 'BENCH_ONLY')
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => `${key}=${value}`),
      parts.length === PARTS.length ? 'npm run bench' : `npm run bench -- --only ${parts.join(',')}`,
    ].join(' '),
    figures: recordedFigures(),
  };
  await writeResults(LATEST, results, runFileName('bench-', date));
  await renderPerformanceFile();
  console.log(`\nWrote ${LATEST} and rendered ${PERFORMANCE_PAGE}.`);
}

await main(process.argv.slice(2));
