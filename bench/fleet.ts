/**
 * The fleet part of `npm run bench`:
 *  - throughput: complete summarize_repo flows (three tools/call rounds each, raw HTTP, fixed answers)
 *    per second through nginx in front of 1 and then 2 instances sharing Redis, same concurrency;
 *  - the per-round cost of single use: consuming a state id in Redis against the in-process store, as a
 *    bare `consumeOnce` and as the server time of a whole accepted round (in-process front).
 * Bounded counts (BENCH_FLEET_FLOWS, BENCH_FLEET_CONCURRENCY, BENCH_CONSUME_OPS); needs redis-server and
 * nginx (skipped, saying so, without them). Never asserted in tests.
 */
import { performance } from 'node:perf_hooks';

import { createModelInputHttpFront, createModelInputServer } from '../src/app/modelInputServer.js';
import { silentLogger } from '../src/logger.js';
import { parseModelSpec } from '../src/models/sources.js';
import { createEphemeralKeyRing } from '../src/state/index.js';
import { createMemoryStore, createRedisStore, type SharedStore } from '../src/state/stores/index.js';
import type { HttpFront } from '../src/transports/http.js';
import { missingFleetBinaries, startFleet } from '../scripts/fleet/startFleet.js';
import { makeSampleRepo, type FixtureRepo } from '../test/helpers/fixtureRepo.js';
import { mcpRequest } from '../test/helpers/rawChannel.js';
import { startRedis } from '../test/helpers/redis.js';

const FLOWS = Number(process.env['BENCH_FLEET_FLOWS'] ?? 300);
const CONCURRENCY = Number(process.env['BENCH_FLEET_CONCURRENCY'] ?? 16);
const CONSUME_OPS = Number(process.env['BENCH_CONSUME_OPS'] ?? 2000);
const ROUND_FLOWS = Number(process.env['BENCH_FLEET_ROUND_FLOWS'] ?? 200);
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
const ARGS = { audience: 'developer', maxFiles: 2 };
const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'bench' });

type Send = (request: Request) => Promise<Response>;
let nextId = 1;

async function call(send: Send, url: string, extra: Record<string, unknown> = {}): Promise<any> {
  const message = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name: 'summarize_repo', arguments: ARGS, ...extra, _meta: META },
  };
  const body = (await (await send(mcpRequest(url, message))).json()) as { result?: any; error?: unknown };
  if (body.result === undefined) throw new Error(`tools/call failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** One flow; `times[i]` gets the time of round i+1 when given. */
async function flow(send: Send, url: string, times?: number[][]): Promise<void> {
  const rounds: Array<(state?: string) => Promise<any>> = [
    () => call(send, url),
    (state) =>
      call(send, url, { requestState: state, inputResponses: { pick_files: answer('["README.md","package.json"]') } }),
    (state) => call(send, url, { requestState: state, inputResponses: { summary: answer('A summary.') } }),
  ];
  let state: string | undefined;
  for (const [index, round] of rounds.entries()) {
    const start = performance.now();
    state = (await round(state))?.requestState;
    times?.[index]?.push(performance.now() - start);
  }
}

async function throughput(instances: number, root: string): Promise<number> {
  const fleet = await startFleet({ instances, root, serveArgs: ['--model', 'host', '--quiet'] });
  try {
    const send: Send = (request) => fetch(request);
    for (let i = 0; i < CONCURRENCY; i++) await flow(send, fleet.endpoint); // warm-up
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < FLOWS) {
          next += 1;
          await flow(send, fleet.endpoint);
        }
      }),
    );
    return FLOWS / ((performance.now() - start) / 1000);
  } finally {
    await fleet.stop();
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function consumeCost(store: SharedStore): Promise<number> {
  const expires = Date.now() + 300_000;
  for (let i = 0; i < 200; i++) await store.consumeOnce(`warm-${i}-${Math.random()}`, expires);
  const start = performance.now();
  for (let i = 0; i < CONSUME_OPS; i++) await store.consumeOnce(`op-${i}-${Math.random()}`, expires);
  return ((performance.now() - start) * 1000) / CONSUME_OPS;
}

function frontWith(store: SharedStore, root: string): HttpFront {
  const server = createModelInputServer({
    root,
    models: parseModelSpec('host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    store,
  });
  return createModelInputHttpFront(server, { logger: silentLogger, allowedHosts: ['localhost'], allowedOrigins: [] });
}

async function roundCost(repo: FixtureRepo, redisUrl: string): Promise<void> {
  const memory = createMemoryStore();
  const redis = createRedisStore({ url: redisUrl, logger: silentLogger });
  await redis.ping();
  const memoryFront = frontWith(memory, repo.root);
  const redisFront = frontWith(redis, repo.root);
  const url = 'http://localhost/mcp';
  const memoryTimes = [[], [], []] as number[][];
  const redisTimes = [[], [], []] as number[][];
  for (let i = 0; i < 20; i++) {
    await flow((r) => memoryFront.fetch(r), url);
    await flow((r) => redisFront.fetch(r), url);
  }
  for (let i = 0; i < ROUND_FLOWS; i++) {
    await flow((r) => memoryFront.fetch(r), url, memoryTimes);
    await flow((r) => redisFront.fetch(r), url, redisTimes);
  }
  const consumeMemory = await consumeCost(memory);
  const consumeRedis = await consumeCost(redis);
  console.log(`\nSingle use: consuming a state id, mean of ${CONSUME_OPS} sequential operations (µs per op)`);
  console.log('| store | consumeOnce | ratio |');
  console.log('|---|---:|---:|');
  console.log(`| in-process (memory:) | ${consumeMemory.toFixed(1)} | 1.00x |`);
  console.log(`| Redis on loopback | ${consumeRedis.toFixed(1)} | ${(consumeRedis / consumeMemory).toFixed(1)}x |`);
  console.log(`\nServer time per round by store, in-process front, median of ${ROUND_FLOWS} flows (ms)`);
  console.log('| round | in-process store | Redis store | ratio |');
  console.log('|---|---:|---:|---:|');
  ['round 1 (nothing to consume)', 'round 2 (consumes)', 'round 3 (consumes)'].forEach((label, index) => {
    const a = median(memoryTimes[index] ?? []);
    const b = median(redisTimes[index] ?? []);
    console.log(`| ${label} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)}x |`);
  });
  await memoryFront.close();
  await redisFront.close();
  await redis.close();
}

export async function benchFleet(): Promise<void> {
  const missing = missingFleetBinaries();
  if (missing.length > 0) {
    console.log(
      `\nFleet benchmark skipped: ${missing.join(' and ')} not installed (apt-get install -y ${missing.join(' ')})`,
    );
    return;
  }
  const repo = await makeSampleRepo();
  const redis = await startRedis();
  try {
    await roundCost(repo, redis.url);
    const one = await throughput(1, repo.root);
    const two = await throughput(2, repo.root);
    console.log(`\nThroughput through nginx, ${FLOWS} flows of three rounds, ${CONCURRENCY} at a time (flows/s)`);
    console.log('| instances | flows/s | ratio |');
    console.log('|---|---:|---:|');
    console.log(`| 1 | ${one.toFixed(1)} | 1.00x |`);
    console.log(`| 2 | ${two.toFixed(1)} | ${(two / one).toFixed(2)}x |`);
  } finally {
    await redis.stop();
    await repo.cleanup();
  }
}
