/**
 * `summarize_repo` as the server serves it against the same calls on the flow engine (`npm run bench -- --only kit`):
 * the bound of issue #27 (the tool rebuilt on the kit keeps its per-round server time within 1.2x of the engine's)
 * measured in one run. The baseline is built here, a low-level tool whose `run` calls `runFlow` with the pick and
 * explore flows as the engine-era `summarize_repo` did; the candidate is whatever `createModelInputServer` serves
 * under that name (the engine before the port, the kit after it). Both are served in-process through the HTTP
 * handler (model plan `host`, the 12-entry sample), interleaved call by call after a warm-up, server time per
 * exchange as medians of BENCH_FLOWS calls (default 200):
 *  - pick mode: round 1 (asks pick_files), round 2 (answers it, asks summary), round 3 (answers it, the result);
 *  - explore mode (sampling.tools declared), a scripted host: a list_directory call, a read_file call, a summary;
 *  - pick mode across two instances sharing a key ring and a store, no survey cache, each round sent to the other
 *    instance than the one before.
 * Every call must end in a successful result with a summary, or the bench throws: a broken side yields no figure.
 */
import { performance } from 'node:perf_hooks';

import { runFlow } from '../src/flows/engine.js';
import type { SealedFlow } from '../src/flows/engine.js';
import type { FlowDefinition, FlowState } from '../src/flows/flow.js';
import { DEFAULT_EXPLORE_BOUNDS } from '../src/flows/summarizeRepo/explore/bounds.js';
import { createExploreFlow } from '../src/flows/summarizeRepo/explore/flow.js';
import { createSummarizeRepoFlow } from '../src/flows/summarizeRepo/flow.js';
import { summarizeRepoInput, summarizeRepoOutput, TOOL_NAME } from '../src/flows/summarizeRepo/schema.js';
import { defineTool, type AnyToolDefinition } from '../src/flows/tool.js';
import { createModelInputHttpFront, createModelInputServer } from '../src/app/modelInputServer.js';
import type { ModelKit } from '../src/kit/kit.js';
import { silentLogger } from '../src/logger.js';
import { DEFAULT_MODEL_BUDGET } from '../src/models/usage.js';
import { parseModelSpec } from '../src/models/sources.js';
import { openRepository, sharedSurveyCache } from '../src/repo/index.js';
import { ANONYMOUS } from '../src/server/principals.js';
import { createEphemeralKeyRing, type KeyRing, type StateCodec } from '../src/state/index.js';
import { createMemoryStore, type SharedStore } from '../src/state/stores/index.js';
import type { HttpFront } from '../src/transports/http.js';
import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { mcpRequest, meta } from '../test/helpers/rawChannel.js';
import { answerOf } from '../test/helpers/toolModel.js';
import { benchCommand, record } from './figures.js';

const FLOWS = Number(process.env['BENCH_FLOWS'] ?? 200);
const WARMUP = Math.min(20, FLOWS);
const MODELS = 'host';

/** Where a kit is, once the server that made it exists (the baseline tool is listed before its server is made). */
interface KitSlot {
  kit?: ModelKit;
}

/**
 * `summarize_repo` on the flow engine, as the engine-era tool ran it: the repository opened with the survey cache
 * and the call's signal, the pick or explore flow, `runFlow` with the server kit's codec, store and model plan.
 */
function engineTool(root: string, slot: KitSlot, surveyCache: boolean): AnyToolDefinition {
  return defineTool({
    name: TOOL_NAME,
    title: 'Summarize repository (flow engine)',
    description: 'summarize_repo on the flow engine: the baseline of `npm run bench -- --only kit`.',
    inputSchema: summarizeRepoInput,
    outputSchema: summarizeRepoOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: 'optional',
    async run(args, ctx) {
      const kit = slot.kit;
      if (kit === undefined) throw new Error('the baseline tool ran before its server was made');
      const repository = { ...(surveyCache && { cache: sharedSurveyCache() }), signal: ctx.signal };
      const openRepo = () => openRepository(root, repository);
      // Explore's rounds within the round cap, the server-owned model's calls and the live samples (as run.ts did).
      const rounds = Math.min(
        DEFAULT_EXPLORE_BOUNDS.rounds,
        kit.maxRounds ?? Number.POSITIVE_INFINITY,
        kit.models.budget?.maxCalls ?? DEFAULT_MODEL_BUDGET.maxCalls,
        ctx.maxSamples ?? Number.POSITIVE_INFINITY,
      );
      const flow =
        args.mode === 'explore'
          ? createExploreFlow({ openRepo, bounds: { rounds: Math.max(1, rounds) } })
          : createSummarizeRepoFlow(openRepo);
      return runFlow(flow as FlowDefinition<typeof args, FlowState>, args, ctx, {
        codec: kit.codec as StateCodec<SealedFlow<unknown>>,
        models: kit.models,
        logger: kit.logger,
        store: kit.store,
        ...(kit.maxRounds !== undefined && { maxRounds: kit.maxRounds }),
        ...(kit.events !== undefined && { events: kit.events }),
      });
    },
  });
}

interface Shared {
  keyRing: KeyRing;
  store: SharedStore;
}

/**
 * One in-process HTTP front: `served` is whatever the server serves as `summarize_repo`, `engine` the baseline tool
 * on a server of its own (given that server's kit). `shared`: a key ring and a store shared with other instances,
 * and no survey cache.
 */
function front(root: string, side: 'served' | 'engine', shared?: Shared): HttpFront {
  const slot: KitSlot = {};
  const server = createModelInputServer({
    root,
    tools: [side === 'served' ? TOOL_NAME : engineTool(root, slot, shared === undefined)],
    models: parseModelSpec(MODELS),
    keyRing: shared?.keyRing ?? createEphemeralKeyRing(),
    ...(shared !== undefined && { store: shared.store, surveyCache: false }),
    logger: silentLogger,
    defaultPrincipal: ANONYMOUS,
  });
  slot.kit = server.kit;
  return createModelInputHttpFront(server, {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
  });
}

/** What the host answers to the requests of round `round` (0-based), given the request. */
type Host = (round: number, params: Record<string, any>) => unknown;

let nextId = 1;

/**
 * Plays one `summarize_repo` call to its end, round `i` sent to `targets[(first + i) % targets.length]`, and adds each
 * exchange's server time to `times[i]`. Throws unless it ends in a successful result with a summary, in `exchanges`.
 */
async function call(
  targets: HttpFront[],
  first: number,
  args: Record<string, unknown>,
  capabilities: Record<string, unknown>,
  host: Host,
  exchanges: number,
  times: number[][],
  side: string,
): Promise<void> {
  let retry: Record<string, unknown> = {};
  for (let round = 0; round < exchanges; round++) {
    const target = targets[(first + round) % targets.length]!;
    const request = mcpRequest('http://localhost/mcp', {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: TOOL_NAME, arguments: args, ...retry, _meta: meta(capabilities) },
    });
    const start = performance.now();
    const body = (await (await target.fetch(request)).json()) as { result?: Record<string, any>; error?: unknown };
    times[round]?.push(performance.now() - start);
    const result = body.result;
    if (result === undefined) throw new Error(`${side}: round ${round + 1} failed: ${JSON.stringify(body.error)}`);
    const last = round === exchanges - 1;
    if (result['resultType'] === 'input_required') {
      if (last) throw new Error(`${side}: still asking for input after ${exchanges} rounds`);
      const asked = Object.entries(result['inputRequests'] as Record<string, { params: Record<string, any> }>);
      retry = {
        requestState: result['requestState'],
        inputResponses: Object.fromEntries(asked.map(([key, input]) => [key, host(round, input.params)])),
      };
      continue;
    }
    if (!last) throw new Error(`${side}: ended after ${round + 1} rounds, ${exchanges} expected`);
    if (result['isError'] === true || typeof result['structuredContent']?.summary !== 'string') {
      throw new Error(`${side}: the call did not end in a summary: ${JSON.stringify(result).slice(0, 500)}`);
    }
  }
}

const text = (value: string) => ({ role: 'assistant', content: { type: 'text', text: value }, model: 'bench' });
const SUMMARY = 'A small TypeScript project: a CLI entry point, its library, tests and docs.';

/** Pick mode: round 1's request is answered with a pick, round 2's with the summary. */
const pickHost: Host = (round) => text(round === 0 ? '["README.md","package.json"]' : SUMMARY);

/** Explore mode: a list_directory call, a read_file call, then the summary (whatever the server still offers). */
const exploreHost: Host = (round, params) => {
  const turns = [
    { calls: [{ name: 'list_directory', input: {} }] },
    { calls: [{ name: 'read_file', input: { path: 'README.md' } }] },
  ];
  const turn = params['toolChoice']?.mode === 'none' ? undefined : turns[round];
  return answerOf(turn ?? { summary: SUMMARY }, round, 'bench');
};

interface Mode {
  label: string;
  args: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  host: Host;
  /** Exchanges of one call, the result included. */
  exchanges: number;
  candidate: HttpFront[];
  baseline: HttpFront[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Each side's median server time per exchange. */
type Medians = { candidate: number[]; baseline: number[] };

/** Medians per exchange of each side, calls interleaved (candidate, then baseline) after a warm-up. */
async function measure(mode: Mode): Promise<Medians> {
  const fresh = () => Array.from({ length: mode.exchanges }, () => [] as number[]);
  const scratch = fresh();
  const times = { candidate: fresh(), baseline: fresh() };
  // Each side's rounds go round its instances in turn, from one call to the next (A, B, A, then B, A, B…).
  const sent = { candidate: 0, baseline: 0 };
  const play = async (side: 'candidate' | 'baseline', into: number[][]) => {
    const first = sent[side];
    sent[side] += mode.exchanges;
    await call(
      mode[side],
      first,
      mode.args,
      mode.capabilities,
      mode.host,
      mode.exchanges,
      into,
      `${mode.label}, ${side}`,
    );
  };
  for (let i = 0; i < WARMUP; i++) {
    await play('candidate', scratch);
    await play('baseline', scratch);
  }
  for (let i = 0; i < FLOWS; i++) {
    await play('candidate', times.candidate);
    await play('baseline', times.baseline);
  }
  return { candidate: times.candidate.map(median), baseline: times.baseline.map(median) };
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const AGAINST = 'the engine';
/** What each ratio is held to (issue #27's bound). */
const BOUND = "The kit's replay must stay within 1.2x.";

export async function benchSummarizeKit(): Promise<void> {
  const repo = await makeSampleRepo();
  const sharedOf = (): Shared => ({ keyRing: createEphemeralKeyRing(), store: createMemoryStore() });
  const candidateShared = sharedOf();
  const baselineShared = sharedOf();
  const fronts = {
    candidate: front(repo.root, 'served'),
    baseline: front(repo.root, 'engine'),
    candidates: [front(repo.root, 'served', candidateShared), front(repo.root, 'served', candidateShared)],
    baselines: [front(repo.root, 'engine', baselineShared), front(repo.root, 'engine', baselineShared)],
  };
  try {
    const pickArgs = { audience: 'developer', maxFiles: 3 };
    const pick = await measure({
      label: 'pick',
      args: pickArgs,
      capabilities: { sampling: {} },
      host: pickHost,
      exchanges: 3,
      candidate: [fronts.candidate],
      baseline: [fronts.baseline],
    });
    const explore = await measure({
      label: 'explore',
      args: { mode: 'explore' },
      capabilities: { sampling: { tools: {} } },
      host: exploreHost,
      exchanges: 4,
      candidate: [fronts.candidate],
      baseline: [fronts.baseline],
    });
    const cross = await measure({
      label: 'cross-instance pick',
      args: pickArgs,
      capabilities: { sampling: {} },
      host: pickHost,
      exchanges: 3,
      candidate: fronts.candidates,
      baseline: fronts.baselines,
    });
    print(pick, explore, cross);
    ['round 1 (survey)', 'round 2 (read)', 'round 3 (result)'].forEach((label, index) =>
      record({
        part: 'kit',
        name: `pick ${label}`,
        against: AGAINST,
        value: pick.candidate[index] ?? NaN,
        baseline: pick.baseline[index] ?? NaN,
        unit: 'ms',
        command: benchCommand('kit'),
        meaning: BOUND,
      }),
    );
    const means: Array<[string, Medians, string]> = [
      ['pick', pick, BOUND],
      ['explore (2 tool calls, summary)', explore, BOUND],
      ['pick on 2 instances', cross, `Rounds alternate instances, no survey cache. ${BOUND}`],
    ];
    for (const [label, times, meaning] of means) {
      record({
        part: 'kit',
        name: `${label}, mean per round`,
        against: AGAINST,
        value: mean(times.candidate),
        baseline: mean(times.baseline),
        unit: 'ms',
        command: benchCommand('kit'),
        meaning,
      });
    }
  } finally {
    for (const served of [fronts.candidate, fronts.baseline, ...fronts.candidates, ...fronts.baselines]) {
      await served.close();
    }
    await repo.cleanup();
  }
}

function print(pick: Medians, explore: Medians, cross: Medians): void {
  console.log(`\nsummarize_repo as served against the flow engine, server time per exchange, median of ${FLOWS} calls`);
  console.log('| call | round | served (ms) | engine (ms) | ratio |');
  console.log('|---|---|---:|---:|---:|');
  for (const [label, times] of [
    ['pick', pick],
    ['explore', explore],
    ['pick, cross-instance', cross],
  ] as const) {
    times.candidate.forEach((value, index) => {
      const base = times.baseline[index] ?? NaN;
      console.log(
        `| ${label} | ${index + 1} | ${value.toFixed(3)} | ${base.toFixed(3)} | ${(value / base).toFixed(2)}x |`,
      );
    });
    const a = mean(times.candidate);
    const b = mean(times.baseline);
    console.log(`| ${label} | mean per round | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(2)}x |`);
  }
}
