/**
 * `npm run stress`: the hardening scenarios of issue 13 against our server and, where the scenario applies, the
 * SDK's minimal McpServer (bench/stressBaseline.ts), each a child process on 127.0.0.1 so its memory is its own.
 * Bounded in count and time; loopback only; every process and socket it starts is stopped at the end.
 *
 *   mixed load      discover / tools/list / summarize_repo (first round) at concurrency 1, 50, 200, with the
 *                   latency of a discover probe sent every 20 ms meanwhile
 *   giant answers   a 200 KB one-character summary and 240 KB of CJK, with the discover probe meanwhile
 *   held bodies     STRESS_HELD (default 1000) connections each declaring a 1 MiB − 1 byte body and stalling
 *   chunked         8 connections each sending a 1 MiB body as 1-byte chunks, with the discover probe (its own
 *                   worker thread) meanwhile: peak RSS above idle, the probe's p50 / p99 / max, the answers
 *   disconnects     300 summarize calls whose clients go away after 1.5 s: git children, time until idle
 *   legacy hogging  one principal opens sessions until refused; can another one still open one?
 *   malformed       500 malformed requests over HTTP, 500 lines over stdio: answers by kind, still alive?
 *   summarize 200   the discover probe alone (idle), then under 200 concurrent summarize_repo calls from 8
 *                   principals (tokens): its p99 against the idle p99. The probe runs on a worker thread with a
 *                   token of its own; STRESS_BURSTS=N bursts, STRESS_VARIANTS='name|cli.js|flags;…' other builds
 *                   measured in turn with ours (STRESS_ROUNDS times), STRESS_SERVE_ARGS more serve flags,
 *                   STRESS_NODE_ARGS Node flags for our server (e.g. --cpu-prof), STRESS_PROBE=inline the probe
 *                   on the driver's own loop
 *
 * `npm run stress -- --only mixed,giant,…` (or STRESS_ONLY=…) runs only the scenarios named. The table is written to
 * bench/results/stress-latest.json (and a recorded copy beside it) and rendered into docs/reliability.md's stress
 * section (bench/render.ts); `npm run stress -- --render` re-renders that section from the JSON alone. Never assert
 * these figures in tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { freePort } from '../scripts/fleet/processes.js';
import { machine, runFileName, STRESS_LATEST } from './figures.js';
import {
  RELIABILITY_PAGE,
  renderReliabilityFile,
  renderStress,
  writeResults,
  type StressResults,
  type StressRow,
} from './render.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The server measured as ours (STRESS_CLI: another build's `dist/cli.js`, e.g. main's, for a before/after pair). */
const CLI = process.env['STRESS_CLI'] ?? join(ROOT, 'dist', 'cli.js');
const HELD = Number(process.env['STRESS_HELD'] ?? 1000);
const SCENARIO_LIMIT_MS = 60_000;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
};
const TOKEN_A = 'stress-token-alice-0123456789';
const TOKEN_B = 'stress-token-bob-0123456789ab';
/**
 * The summarize200 probe's own principal: on a server with a tokens file a probe without a token would measure a
 * 401, answered before its body is read and so with `Connection: close` (a new connection per probe).
 */
const TOKEN_PROBE = 'stress-token-probe-0123456789';
/** Eight principals for the 200 concurrent summarize calls. */
const CALLERS = Array.from({ length: 8 }, (_, index) => `stress-token-caller-${index}-0123456789`);
const SCENARIOS = ['mixed', 'giant', 'disconnect', 'malformed', 'chunked', 'held', 'summarize200', 'legacy'];
/** `--only a,b` (or STRESS_ONLY=a,b): the scenarios to run; all when absent. */
const ONLY = new Set(
  (
    (process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : process.env['STRESS_ONLY']) ??
    ''
  )
    .split(',')
    .filter((name) => name !== ''),
);
for (const name of ONLY) {
  if (!SCENARIOS.includes(name)) throw new Error(`unknown stress scenario ${name}; scenarios: ${SCENARIOS.join(', ')}`);
}
const runs = (scenario: string): boolean => ONLY.size === 0 || ONLY.has(scenario);
/** Extra Node flags for our server's process, e.g. STRESS_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'. */
const NODE_ARGS = (process.env['STRESS_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
/** Extra `serve` flags for the summarize200 server, e.g. STRESS_SERVE_ARGS='--max-calls 16'. */
const SERVE_ARGS = (process.env['STRESS_SERVE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
/**
 * Other servers to measure summarize200 against, in turn with ours, STRESS_ROUNDS times: `name|cli.js|flags`
 * separated by `;`, e.g. STRESS_VARIANTS='main|/tmp/main/dist/cli.js|;cap 4|dist/cli.js|--max-calls 4'.
 */
const VARIANTS = (process.env['STRESS_VARIANTS'] ?? '')
  .split(';')
  .filter((entry) => entry.trim() !== '')
  .map((entry) => {
    const [name = '', cli = '', flags = ''] = entry.split('|');
    return { name: name.trim(), cli: cli.trim(), flags: flags.split(' ').filter((arg) => arg !== '') };
  });
const ROUNDS = Math.max(1, Math.min(10, Number(process.env['STRESS_ROUNDS'] ?? 2)));
/** summarize200 runs its burst this many times (default 1), each its own row, then a row of all the probes. */
const BURSTS = Math.max(1, Math.min(10, Number(process.env['STRESS_BURSTS'] ?? 1)));
/** The driver's own event loop: the probe's latencies include its delays (it shares the machine's cores). */
const driverLoop = monitorEventLoopDelay({ resolution: 5 });
driverLoop.enable();
/** The driver's longest event-loop delay since the last call, ms. */
function driverLoopMax(): number {
  const max = driverLoop.max / 1e6;
  driverLoop.reset();
  return max;
}

interface Target {
  name: string;
  port: number;
  child: ChildProcess;
  peakRss: number;
  idleRss: number;
}

const children: ChildProcess[] = [];
const sockets = new Set<Socket>();

function rssOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Promise.resolve(0);
  return readFile(`/proc/${pid}/status`, 'utf8')
    .then((text) => Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0) * 1024)
    .catch(() => 0);
}

/** How many `git` processes are children of `pid` right now (Linux /proc). */
async function gitChildren(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  let count = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match?.[1] === 'git' && Number(match[2]) === pid) count++;
  }
  return count;
}

async function start(name: string, command: string, args: string[], pattern: RegExp): Promise<Target> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 20_000);
    const look = (chunk: Buffer): void => {
      const match = pattern.exec(chunk.toString());
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const idleRss = await rssOf(child.pid);
  const target: Target = { name, port, child, peakRss: idleRss, idleRss };
  const sampler = setInterval(() => {
    void rssOf(child.pid).then((rss) => (target.peakRss = Math.max(target.peakRss, rss)));
  }, 50);
  sampler.unref();
  child.once('exit', () => clearInterval(sampler));
  return target;
}

let nextId = 1;
interface Outcome {
  ms: number;
  kind: string;
}

async function post(
  target: Target,
  method: string,
  params: Record<string, unknown>,
  options: { token?: string; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Outcome & { body?: any }> {
  const started = performance.now();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...options.headers,
  };
  if (typeof params['name'] === 'string') headers['mcp-name'] = params['name'];
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  try {
    const response = await fetch(`http://127.0.0.1:${target.port}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } }),
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    const text = await response.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const code = body?.error?.code;
    const kind = response.status !== 200 ? `http ${response.status}` : code !== undefined ? `rpc ${code}` : 'ok';
    return { ms: performance.now() - started, kind, body };
  } catch (error) {
    return { ms: performance.now() - started, kind: (error as Error).name === 'AbortError' ? 'aborted' : 'network' };
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function kinds(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const { kind } of outcomes) if (kind !== 'ok') counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none';
}

/** Sends server/discover every 20 ms until stopped; returns the latencies. */
function probe(target: Target, token?: string): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const { ms } = await post(target, 'server/discover', {}, token === undefined ? {} : { token });
      latencies.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

/**
 * The discover probe on a worker thread: its own event loop, so that its latencies are not the driver's own delays
 * (answering 200 calls at once keeps the driver's main loop busy too). Same request and pace as {@link probe}.
 */
function workerProbe(target: Target, token?: string): { ready(): Promise<void>; stop(): Promise<number[]> } {
  const headers = {
    ...(token !== undefined && { authorization: `Bearer ${token}` }),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'server/discover',
  };
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { performance } = require('node:perf_hooks');
    let running = true;
    const latencies = [];
    parentPort.on('message', () => (running = false));
    const send = (id) =>
      fetch(workerData.url, {
        method: 'POST',
        headers: workerData.headers,
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: workerData.meta } }),
      }).then((response) => {
        if (response.status !== 200) failed++;
        return response.text();
      });
    let failed = 0;
    (async () => {
      // The connection is opened before the window: a probe never waits in the listen queue behind a burst's.
      await send(0).catch(() => {});
      parentPort.postMessage('ready');
      for (let id = 1; running; id++) {
        const started = performance.now();
        await send(id).catch(() => failed++);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      parentPort.postMessage({ latencies, failed });
    })();`;
  const worker = new Worker(code, {
    eval: true,
    workerData: { url: `http://127.0.0.1:${target.port}/mcp`, headers, meta: META },
  });
  let ready: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const started = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const done = new Promise<number[]>((resolve, reject) => {
    worker.on('message', (message: 'ready' | { latencies: number[]; failed: number }) => {
      if (message === 'ready') return ready();
      // A probe is a discover answered 200; anything else would measure something else (a 401 closes the connection).
      if (message.failed > 0) reject(new Error(`${message.failed} discover probes were not answered 200`));
      else resolve(message.latencies);
    });
    worker.once('error', (error) => {
      failed(error);
      reject(error);
    });
  });
  // Surfaced by ready() or stop(), never as an unhandled rejection that would end the run before its clean-up.
  started.catch(() => {});
  done.catch(() => {});
  return {
    ready: () => started,
    stop: async () => {
      worker.postMessage('stop');
      const latencies = await done.finally(() => worker.terminate());
      return latencies;
    },
  };
}

/** summarize200's probe: on a worker thread unless STRESS_PROBE=inline (the driver's own loop, as before). */
const summarizeProbe = (target: Target) =>
  process.env['STRESS_PROBE'] === 'inline'
    ? { ready: () => Promise.resolve(), ...probe(target, TOKEN_PROBE) }
    : workerProbe(target, TOKEN_PROBE);

const rows: StressRow[] = [];
function row(scenario: string, target: Target | string, cells: Record<string, string | number>): void {
  const name = typeof target === 'string' ? target : target.name;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const rss = typeof target === 'string' ? '—' : `${mb(target.peakRss)} (idle ${mb(target.idleRss)})`;
  const text = (key: string): string => String(cells[key] ?? '—');
  rows.push({
    scenario,
    server: name,
    throughput: text('throughput'),
    p50: text('p50'),
    p99: text('p99'),
    probe: text('probe'),
    rss,
    errors: text('errors'),
    notes: String(cells['notes'] ?? ''),
  });
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 1 : 0) : '—');

async function mixedLoad(target: Target, concurrency: number): Promise<void> {
  target.peakRss = await rssOf(target.child.pid);
  const total = Math.min(600, Math.max(30, concurrency * 3));
  const probing = probe(target);
  const outcomes: Outcome[] = [];
  let issued = 0;
  const started = performance.now();
  const deadline = started + SCENARIO_LIMIT_MS;
  const worker = async (): Promise<void> => {
    while (issued < total && performance.now() < deadline) {
      const index = issued++;
      const which = index % 3;
      const outcome =
        which === 0
          ? await post(target, 'server/discover', {})
          : which === 1
            ? await post(target, 'tools/list', {})
            : await post(target, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 3 } });
      outcomes.push(outcome);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const probes = await probing.stop();
  const times = outcomes.map((outcome) => outcome.ms);
  row(`mixed load, concurrency ${concurrency}`, target, {
    throughput: `${(outcomes.length / seconds).toFixed(0)} req/s`,
    p50: fmt(percentile(times, 50)),
    p99: fmt(percentile(times, 99)),
    probe: `${fmt(percentile(probes, 50))} / ${fmt(percentile(probes, 99))}`,
    errors: kinds(outcomes),
  });
}

async function giantAnswers(target: Target): Promise<void> {
  target.peakRss = await rssOf(target.child.pid);
  const outcomes: Outcome[] = [];
  const probing = probe(target);
  for (const [label, text] of [
    ['one character', 'a'.repeat(200 * 1024)],
    ['CJK', '漢字仮名交じり文'.repeat(10 * 1024)],
  ] as const) {
    const first = await post(target, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 2 } });
    const pick = await post(target, 'tools/call', {
      name: 'summarize_repo',
      arguments: { maxFiles: 2 },
      requestState: first.body?.result?.requestState,
      inputResponses: { pick_files: answer('["README.md"]') },
    });
    const last = await post(target, 'tools/call', {
      name: 'summarize_repo',
      arguments: { maxFiles: 2 },
      requestState: pick.body?.result?.requestState,
      inputResponses: { summary: answer(text) },
    });
    outcomes.push({ ms: last.ms, kind: last.body?.result?.isError === false ? 'ok' : `${label}: ${last.kind}` });
  }
  const probes = await probing.stop();
  row('giant summary answers (200 KB, 240 KB CJK)', target, {
    p50: fmt(
      percentile(
        outcomes.map((o) => o.ms),
        50,
      ),
    ),
    p99: fmt(
      percentile(
        outcomes.map((o) => o.ms),
        99,
      ),
    ),
    probe: `${fmt(percentile(probes, 50))} / ${fmt(percentile(probes, 99))}`,
    errors: kinds(outcomes),
  });
}

function answer(text: string): Record<string, unknown> {
  return { role: 'assistant', content: { type: 'text', text }, model: 'stress', stopReason: 'endTurn' };
}

async function heldBodies(target: Target): Promise<void> {
  target.peakRss = await rssOf(target.child.pid);
  const size = 1024 * 1024 - 1;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const statuses = new Map<string, number>();
  const opened: Socket[] = [];
  const started = performance.now();
  for (let index = 0; index < HELD && performance.now() - started < SCENARIO_LIMIT_MS; index++) {
    const socket = connect(target.port, '127.0.0.1');
    sockets.add(socket);
    opened.push(socket);
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (data: Buffer) => {
      if (head === '') {
        head = /^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1] ?? '?';
        statuses.set(`http ${head}`, (statuses.get(`http ${head}`) ?? 0) + 1);
      }
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${size}\r\n\r\n`,
    );
    // All but the last byte of the body, then stall.
    for (let sent = 0; sent < size - 1; sent += chunk.length) {
      socket.write(chunk.subarray(0, Math.min(chunk.length, size - 1 - sent)));
    }
    if (index % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = await post(target, 'server/discover', {});
  for (const socket of opened) {
    socket.destroy();
    sockets.delete(socket);
  }
  const answered = [...statuses].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none yet';
  row(`${opened.length} held 1 MiB − 1 byte bodies`, target, {
    errors: answered,
    notes: `peak RSS above idle ${((target.peakRss - target.idleRss) / 1024 / 1024).toFixed(0)} MB; discover meanwhile: ${after.kind}`,
  });
}

/** Connections of the chunked scenario, and the body each sends in 1-byte chunks. */
const CHUNKED_CONNECTIONS = 8;
const CHUNKED_BODY_BYTES = 1024 * 1024;

async function chunkedBodies(target: Target): Promise<void> {
  target.peakRss = await rssOf(target.child.pid);
  const wire = Buffer.from('1\r\n \r\n'.repeat(CHUNKED_BODY_BYTES) + '0\r\n\r\n', 'latin1');
  // The probe alone first: on a busy machine its own spread is the yardstick for the figure under the attack.
  const idleProbe = workerProbe(target);
  await idleProbe.ready();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = await idleProbe.stop();
  const probe = workerProbe(target);
  await probe.ready();
  const statuses = new Map<string, number>();
  const started = performance.now();
  const closed = Array.from({ length: CHUNKED_CONNECTIONS }, () => {
    const socket = connect(target.port, '127.0.0.1');
    sockets.add(socket);
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (data: Buffer) => {
      if (head === '') {
        head = /^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1] ?? '?';
        statuses.set(`http ${head}`, (statuses.get(`http ${head}`) ?? 0) + 1);
      }
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n`,
    );
    socket.write(wire);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        socket.destroy();
        resolve();
      }, SCENARIO_LIMIT_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        sockets.delete(socket);
        resolve();
      });
    });
  });
  await Promise.all(closed);
  const elapsed = performance.now() - started;
  // The probe goes on a little after the last connection closed: the server's recovery is part of the figure.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const latencies = await probe.stop();
  const answered = [...statuses].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none';
  row(`${CHUNKED_CONNECTIONS} × 1 MiB bodies in 1-byte chunks`, target, {
    probe: `${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 99))} (max ${fmt(Math.max(...latencies))})`,
    errors: answered,
    notes:
      `peak RSS above idle ${((target.peakRss - target.idleRss) / 1024 / 1024).toFixed(0)} MB; all closed after ` +
      `${(elapsed / 1000).toFixed(1)} s; ${latencies.length} probes, ${latencies.filter((ms) => ms >= 1000).length} ` +
      `at 1 s or more; probe alone before: ${fmt(percentile(idle, 50))} / ${fmt(percentile(idle, 99))} (max ${fmt(Math.max(...idle))})`,
  });
}

async function disconnectStorm(target: Target): Promise<void> {
  target.peakRss = await rssOf(target.child.pid);
  let peakGit = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakGit = Math.max(peakGit, await gitChildren(target.child.pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const calls = Array.from({ length: 300 }, () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    return post(target, 'tools/call', { name: 'summarize_repo', arguments: {} }, { signal: controller.signal });
  });
  const outcomes = await Promise.all(calls);
  const gone = performance.now();
  // Busy until a discover answers fast and no git child is left (bounded).
  let idleAfter = NaN;
  while (performance.now() - gone < 30_000) {
    const discover = await post(target, 'server/discover', {});
    if ((await gitChildren(target.child.pid)) === 0 && discover.ms < 50) {
      idleAfter = performance.now() - gone;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  sampling = false;
  await sampler;
  row('300 calls, clients gone after 1.5 s', target, {
    errors: kinds(outcomes),
    notes: `peak git children ${peakGit}; idle ${fmt(idleAfter)} ms after the clients left`,
  });
}

/** The discover probe alone for `ms`: the idle latencies the loaded ones are read against. */
async function idleProbe(target: Target, ms: number): Promise<number[]> {
  const probing = summarizeProbe(target);
  await probing.ready();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return probing.stop();
}

/** The longest event-loop delay of the server since the last scrape (prom-client resets it at each scrape), ms. */
async function loopDelayMax(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^mmi_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
}

async function summarize200(target: Target, metricsPort: number): Promise<void> {
  // Past the first answers (modules load when first needed; the warm-up runs after the first answer), and past the
  // survey cache's fill: the first call's survey arms the tree's watch and a later one is kept (repo/surveyCache.ts),
  // so that the bursts measure queued calls, not a cold survey in the first of them.
  await post(target, 'server/discover', {}, { token: TOKEN_PROBE });
  for (let call = 0; call < 2; call++) {
    await post(
      target,
      'tools/call',
      { name: 'summarize_repo', arguments: { maxFiles: 3 } },
      { token: CALLERS[0] as string },
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  await loopDelayMax(metricsPort);
  driverLoopMax();
  const idle = await idleProbe(target, 3000);
  const idleLoop = await loopDelayMax(metricsPort);
  const idleDriver = driverLoopMax();
  row('discover probe alone (idle, 3 s, after two calls)', target, {
    probe: `${fmt(percentile(idle, 50))} / ${fmt(percentile(idle, 99))}`,
    notes:
      `${idle.length} probes; max ${fmt(Math.max(...idle))} ms; event-loop delay max: server ${fmt(idleLoop)} ms, ` +
      `driver ${fmt(idleDriver)} ms`,
  });
  const all: number[] = [];
  for (let burst = 1; burst <= BURSTS; burst++) {
    all.push(...(await summarizeBurst(target, metricsPort, idle, BURSTS === 1 ? '' : ` (burst ${burst})`)));
    if (burst < BURSTS) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (BURSTS > 1) {
    row(`all ${BURSTS} bursts' probes`, target, {
      probe: `${fmt(percentile(all, 50))} / ${fmt(percentile(all, 99))}`,
      notes: `discover p99 ${(percentile(all, 99) / percentile(idle, 99)).toFixed(1)}x idle p99; ${all.length} probes`,
    });
  }
}

/** 200 concurrent summarize_repo calls from 8 principals with the discover probe meanwhile: the probe's latencies. */
async function summarizeBurst(target: Target, metricsPort: number, idle: number[], label: string): Promise<number[]> {
  await loopDelayMax(metricsPort);
  driverLoopMax();
  target.peakRss = await rssOf(target.child.pid);
  const probing = summarizeProbe(target);
  await probing.ready();
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, (_, index) =>
      post(
        target,
        'tools/call',
        { name: 'summarize_repo', arguments: { maxFiles: 3 } },
        { token: CALLERS[index % CALLERS.length] as string },
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const probes = await probing.stop();
  const loadLoop = await loopDelayMax(metricsPort);
  const loadDriver = driverLoopMax();
  const times = outcomes.map((outcome) => outcome.ms);
  const ratio = percentile(probes, 99) / percentile(idle, 99);
  row(`200 concurrent summarize_repo calls, 8 principals${label}`, target, {
    throughput: `${(outcomes.length / seconds).toFixed(0)} req/s`,
    p50: fmt(percentile(times, 50)),
    p99: fmt(percentile(times, 99)),
    probe: `${fmt(percentile(probes, 50))} / ${fmt(percentile(probes, 99))}`,
    errors: kinds(outcomes),
    notes:
      `discover p99 ${ratio.toFixed(1)}x idle p99; ${probes.length} probes, max ${fmt(Math.max(...probes))} ms; ` +
      `event-loop delay max: server ${fmt(loadLoop)} ms, driver ${fmt(loadDriver)} ms`,
  });
  return probes;
}

async function legacyHogging(target: Target): Promise<void> {
  const initialize = (token: string) =>
    fetch(`http://127.0.0.1:${target.port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hog', version: '0' } },
      }),
    }).then(async (response) => {
      await response.text();
      return response.status;
    });
  let opened = 0;
  let refusal = 0;
  for (let attempt = 0; attempt < 200; attempt++) {
    const status = await initialize(TOKEN_A);
    if (status !== 200) {
      refusal = status;
      break;
    }
    opened++;
  }
  const other = await initialize(TOKEN_B);
  row('legacy session hogging (--max-sessions 100)', target, {
    errors: `hog refused with ${refusal || 'nothing'} after ${opened}`,
    notes: `another principal's initialize: ${other}`,
  });
}

const MALFORMED: string[] = [
  '',
  'not json',
  '{',
  '[]',
  '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
  '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"method":"x\\nforged line\\u001b[2J"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"summarize_repo","arguments":{"path":"../../etc"}}}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list","params":{}}',
  `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${'['.repeat(5000)}}}`,
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"summarize_repo","arguments":{"maxFiles":"x"},"requestState":"AAAA"}}',
];

async function malformedHttp(target: Target): Promise<void> {
  const outcomes: Outcome[] = [];
  for (let index = 0; index < 500; index++) {
    const body = MALFORMED[index % MALFORMED.length] ?? '';
    const started = performance.now();
    try {
      const response = await fetch(`http://127.0.0.1:${target.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      await response.text();
      outcomes.push({ ms: performance.now() - started, kind: `http ${response.status}` });
    } catch {
      outcomes.push({ ms: performance.now() - started, kind: 'network' });
    }
  }
  const alive = await post(target, 'server/discover', {});
  row('500 malformed requests over HTTP', target, {
    p50: fmt(
      percentile(
        outcomes.map((o) => o.ms),
        50,
      ),
    ),
    p99: fmt(
      percentile(
        outcomes.map((o) => o.ms),
        99,
      ),
    ),
    errors: kinds(outcomes.map((o) => ({ ...o, kind: o.kind === 'http 200' ? 'ok' : o.kind }))),
    notes: `alive after: ${alive.kind}`,
  });
}

async function malformedStdio(repo: string): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--root', repo, '--model', 'host', '--quiet'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  for (let index = 0; index < 500; index++) {
    child.stdin.write(`${(MALFORMED[index % MALFORMED.length] ?? '').replace(/\n/g, ' ')}\n`);
  }
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'server/discover', params: { _meta: META } })}\n`,
  );
  const started = performance.now();
  while (!out.includes('"id":"alive"') && performance.now() - started < 20_000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const codes = new Map<string, number>();
  for (const line of out.split('\n').filter((line) => line.length > 0)) {
    const message = JSON.parse(line) as { error?: { code: number } };
    const kind = message.error === undefined ? 'ok' : `rpc ${message.error.code}`;
    codes.set(kind, (codes.get(kind) ?? 0) + 1);
  }
  const stderrLines = err.split('\n').filter((line) => line.length > 0);
  row('500 malformed lines over stdio', 'mcp-model-input', {
    errors: [...codes].map(([kind, count]) => `${kind}: ${count}`).join(', '),
    notes: `alive after: ${out.includes('"id":"alive"') ? 'yes' : 'no'}; ${stderrLines.length} stderr lines, ${
      // eslint-disable-next-line no-control-regex -- counting raw control characters is the point
      stderrLines.filter((line) => /[\u0000-\u0008\u000b-\u001f]/.test(line)).length
    } with raw control characters`,
  });
  child.kill('SIGTERM');
}

async function makeRepo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mmi-stress-'));
  await writeFile(join(root, 'README.md'), '# Stress\n\nA repository for the stress run.\n');
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'stress', main: 'src/index.ts' }));
  for (let dir = 0; dir < 12; dir++) {
    await mkdir(join(root, 'src', `module${dir}`), { recursive: true });
    for (let file = 0; file < 26; file++) {
      await writeFile(
        join(root, 'src', `module${dir}`, `file${file}.ts`),
        `export const value${file} = ${file};\n`.repeat(20),
      );
    }
  }
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=s', '-c', 'user.email=s@s', 'commit', '-qm', 'init'], { cwd: root });
  return root;
}

async function main(): Promise<void> {
  const date = new Date().toISOString();
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  const repo = await makeRepo();
  const tokens = join(repo, '..', `${repo.split('/').pop()}-tokens.json`);
  await writeFile(
    tokens,
    JSON.stringify({
      [TOKEN_A]: 'alice',
      [TOKEN_B]: 'bob',
      [TOKEN_PROBE]: 'probe',
      ...Object.fromEntries(CALLERS.map((token, index) => [token, `caller${index}`])),
    }),
  );
  try {
    const ours = await start(
      'mcp-model-input',
      process.execPath,
      [CLI, 'serve', '--http', '127.0.0.1:0', '--root', repo, '--model', 'host'],
      /127\.0\.0\.1:(\d+)\/mcp/,
    );
    const baseline = await start(
      'SDK McpServer',
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench', 'stressBaseline.ts')],
      /listening (\d+)/,
    );
    if (runs('mixed')) {
      for (const concurrency of [1, 50, 200]) {
        await mixedLoad(ours, concurrency);
        await mixedLoad(baseline, concurrency);
      }
    }
    if (runs('giant')) await giantAnswers(ours);
    if (runs('disconnect')) await disconnectStorm(ours);
    if (runs('malformed')) {
      await malformedHttp(ours);
      await malformedHttp(baseline);
      await malformedStdio(repo);
    }
    if (runs('chunked')) await chunkedBodies(ours);
    if (runs('held')) {
      await heldBodies(ours);
      await heldBodies(baseline);
    }
    if (runs('summarize200') || runs('legacy')) {
      const withTokens = async (name: string, cli: string, flags: readonly string[]) => {
        const metricsPort = await freePort();
        const server = await start(
          name,
          process.execPath,
          [
            ...NODE_ARGS,
            cli,
            'serve',
            '--http',
            '127.0.0.1:0',
            '--root',
            repo,
            '--model',
            'host',
            '--tokens-file',
            tokens,
            '--metrics',
            `127.0.0.1:${metricsPort}`,
            ...flags,
          ],
          /127\.0\.0\.1:(\d+)\/mcp/,
        );
        return { server, metricsPort };
      };
      const ours = await withTokens('mcp-model-input (tokens)', CLI, SERVE_ARGS);
      if (runs('summarize200')) {
        const others = [];
        for (const variant of VARIANTS) others.push(await withTokens(variant.name, variant.cli, variant.flags));
        for (let round = 0; round < (others.length === 0 ? 1 : ROUNDS); round++) {
          for (const { server, metricsPort } of [...others, ours]) await summarize200(server, metricsPort);
        }
      }
      if (runs('legacy')) await legacyHogging(ours.server);
    }
  } finally {
    for (const socket of sockets) socket.destroy();
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await rm(repo, { recursive: true, force: true });
    await rm(tokens, { force: true });
  }
  const results: StressResults = {
    kind: 'stress',
    date,
    machine: machine(),
    scenarios: SCENARIOS.filter(runs),
    command: [
      // The knobs set for this run are part of what was run.
      ...Object.entries(process.env)
        .filter(([key]) => key.startsWith('STRESS_') && key !== 'STRESS_ONLY')
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => `${key}=${value}`),
      ONLY.size === 0 ? 'npm run stress' : `npm run stress -- --only ${[...ONLY].join(',')}`,
    ].join(' '),
    rows,
  };
  console.log(renderStress(results, STRESS_LATEST));
  await writeResults(STRESS_LATEST, results, runFileName('stress-', date), ROOT);
  await renderReliabilityFile(ROOT);
  console.log(`\nWrote ${STRESS_LATEST} and rendered its section of ${RELIABILITY_PAGE}.`);
}

if (process.argv.includes('--render')) await renderReliabilityFile(ROOT);
else await main();
