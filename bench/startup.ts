/**
 * The start-up part of `npm run bench` (`npm run bench -- --only startup` runs it alone): whole processes of the
 * built CLI (`dist/cli.js`, so `npm run build` first) against baselines measured in the same run, interleaved so
 * that machine noise hits both sides alike. Wall time is measured here from spawn to exit (or to the first
 * answer); peak RSS and CPU time (user + system: all threads, and children such as git) come from `/usr/bin/time`
 * when present — CPU time moves less with the machine's load than wall time does. Medians of `BENCH_STARTUP_RUNS` (default 7).
 *
 *  - `--version`, `--help` and every command's `--help` against `node -e 0`;
 *  - `summarize` (and `summarize --json`) on the 12-entry sample repository against the SDK's import floor (a
 *    process that only imports `@modelcontextprotocol/server` and `@modelcontextprotocol/client`);
 *  - `serve --stdio` up to its first `server/discover` answer against a minimal SDK `McpServer` stdio server with
 *    one tool, started and asked the same way;
 *  - the first `tools/call` in a fresh `serve --stdio` process against later calls in the same process.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { benchCommand, record } from './figures.js';

const RUNS = Number(process.env['BENCH_STARTUP_RUNS'] ?? 7);
const WARM_CALLS = 5;
const PAUSE_MS = 1000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/cli.js');
/** Another build's CLI (e.g. main's, built elsewhere) measured in the same loop, for a before/after in one run. */
const BEFORE = process.env['BENCH_STARTUP_BEFORE'];
const SDK_FLOOR = join(ROOT, 'bench/startup/sdkImportFloor.mjs');
const MINIMAL_SERVER = join(ROOT, 'bench/startup/minimalStdioServer.mjs');
const TIME = '/usr/bin/time';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const COMMANDS = ['serve', 'summarize', 'plan', 'audit', 'call', 'discover', 'keygen'];

interface Sample {
  ms: number;
  /** Peak resident set in MB, when /usr/bin/time could tell. */
  rssMb?: number;
  /** CPU time (user + system, all threads and children waited for) in ms, when /usr/bin/time could tell. */
  cpuMs?: number;
}

let scratch = '';
let runCount = 0;

/** Spawns `node ARGS` (under /usr/bin/time when present); `drive` may talk to it and decides when the clock stops. */
async function measure(
  args: string[],
  drive?: (child: ReturnType<typeof spawn>, stop: () => void) => void,
  cwd = ROOT,
): Promise<Sample> {
  const rssFile = join(scratch, `rss-${runCount++}`);
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-f', '%M %U %S', '-o', rssFile, process.execPath, ...args] : args;
  const start = performance.now();
  let stopped: number | undefined;
  const child = spawn(command, argv, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (drive) drive(child, () => (stopped ??= performance.now()));
  else child.stdin.end();
  const code = await exited;
  clearTimeout(guard);
  const end = stopped ?? performance.now();
  if (code !== 0 && drive === undefined) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`);
  let rssMb: number | undefined;
  let cpuMs: number | undefined;
  if (useTime) {
    const last = (await readFile(rssFile, 'utf8').catch(() => '')).trim().split('\n').pop() ?? '';
    const [kb, user, system] = last.split(' ').map(Number);
    if (kb !== undefined && Number.isFinite(kb) && kb > 0) rssMb = kb / 1024;
    if (user !== undefined && system !== undefined && Number.isFinite(user + system)) cpuMs = (user + system) * 1000;
  }
  return { ms: end - start, ...(rssMb !== undefined && { rssMb }), ...(cpuMs !== undefined && { cpuMs }) };
}

/** Reads newline-delimited JSON-RPC answers from a child's stdout. */
function lines(child: ReturnType<typeof spawn>, onLine: (message: any) => void): void {
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') onLine(JSON.parse(line));
    }
  });
}

const request = (id: number, method: string, params: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } })}\n`;

/** Starts a stdio server, sends `server/discover`, stops the clock at the answer, then closes stdin. */
function discoverOnce(args: string[]): Promise<Sample> {
  return measure(args, (child, stop) => {
    lines(child, (message) => {
      if (message.id !== 1) return;
      if (message.result === undefined) throw new Error(`discover failed: ${JSON.stringify(message)}`);
      stop();
      child.stdin?.end();
    });
    child.stdin?.write(request(1, 'server/discover'));
  });
}

/**
 * A fresh `serve --stdio`: `server/discover`, then after `pauseMs` (0: at once; a host usually lists tools and lets
 * its model take a turn first) the first `tools/call` (built-in model, one call), then WARM_CALLS more.
 */
async function toolCalls(
  repo: string,
  pauseMs: number,
  cli = CLI,
): Promise<{ first: number; warm: number[]; changed: number; cpuMs: number }> {
  const times: number[] = [];
  let changed = NaN;
  const sample = await measure([cli, 'serve', '--stdio', '--root', repo], (child) => {
    let id = 1;
    let sentAt = 0;
    const send = (): void => {
      sentAt = performance.now();
      child.stdin?.write(request(++id, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 3 } }));
    };
    lines(child, (message) => {
      if (message.id === 1) return void setTimeout(send, pauseMs);
      if (message.result?.isError !== false) throw new Error(`tools/call failed: ${JSON.stringify(message)}`);
      const elapsed = performance.now() - sentAt;
      if (times.length <= WARM_CALLS) {
        times.push(elapsed);
        if (times.length <= WARM_CALLS) return send();
        // One more after a change to the tree: what a call costs when nothing cached may be used.
        const now = new Date();
        void utimes(join(repo, 'README.md'), now, now).then(send);
        return;
      }
      changed = elapsed;
      child.stdin?.end();
    });
    child.stdin?.write(request(1, 'server/discover'));
  });
  const [first, ...warm] = times;
  return { first: first ?? NaN, warm, changed, cpuMs: sample.cpuMs ?? NaN };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

interface Row {
  label: string;
  samples: Sample[];
}

function summary(rows: Row[], baseline: Row, goalRatio: string, goalRssMb?: number): void {
  const med = (row: Row, pick: (sample: Sample) => number | undefined): number =>
    median(row.samples.flatMap((sample) => pick(sample) ?? []));
  const baseMs = med(baseline, (s) => s.ms);
  const baseRss = med(baseline, (s) => s.rssMb);
  const baseCpu = med(baseline, (s) => s.cpuMs);
  console.log('| process | ms | vs baseline | CPU ms | CPU vs baseline | peak RSS MB | RSS above baseline | goal |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const row of [baseline, ...rows]) {
    const ms = med(row, (s) => s.ms);
    const rss = med(row, (s) => s.rssMb);
    const cpu = med(row, (s) => s.cpuMs);
    const isBase = row === baseline;
    const goal = isBase ? '—' : `≤ ${goalRatio}${goalRssMb === undefined ? '' : `, ≤ +${goalRssMb} MB`}`;
    console.log(
      `| ${row.label} | ${ms.toFixed(0)} | ${(ms / baseMs).toFixed(2)}x | ${cpu.toFixed(0)} | ${(cpu / baseCpu).toFixed(2)}x | ${rss.toFixed(0)} | ${isBase ? '—' : `${(rss - baseRss).toFixed(0)}`} | ${goal} |`,
    );
  }
}

/**
 * `BENCH_STARTUP=calls`: the first-call part alone, for this build and (with BENCH_STARTUP_BEFORE) another, interleaved:
 * each run starts a fresh process per build and pause.
 */
export async function benchFirstCalls(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  scratch = await mkdtemp(join(tmpdir(), 'mmi-bench-startup-'));
  const repo = await makeSampleRepo();
  try {
    const builds = [
      { label: 'this build', cli: CLI },
      ...(BEFORE === undefined ? [] : [{ label: 'the other build', cli: BEFORE }]),
    ];
    const results = builds.map(() => ({
      first: [] as number[],
      paused: [] as number[],
      warm: [] as number[],
      cpu: [] as number[],
    }));
    for (let run = 0; run < RUNS; run++) {
      for (const [index, build] of builds.entries()) {
        const result = results[index]!;
        const calls = await toolCalls(repo.root, 0, build.cli);
        result.first.push(calls.first);
        result.warm.push(median(calls.warm));
        const paused = await toolCalls(repo.root, PAUSE_MS, build.cli);
        result.paused.push(paused.first);
        result.warm.push(median(paused.warm));
        result.cpu.push(paused.cpuMs);
      }
    }
    console.log(`\nFirst tool call, median of ${RUNS} interleaved runs (node ${process.version}), ms`);
    console.log(
      '\n| build | first, sent at once | vs warm | first, sent ' +
        PAUSE_MS +
        ' ms after discover | vs warm | warm | process CPU ms (paused run, whole) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [index, build] of builds.entries()) {
      const result = results[index]!;
      const warmMs = median(result.warm);
      console.log(
        `| ${build.label} | ${median(result.first).toFixed(1)} | ${(median(result.first) / warmMs).toFixed(2)}x | ${median(result.paused).toFixed(1)} | ${(median(result.paused) / warmMs).toFixed(2)}x | ${warmMs.toFixed(1)} | ${median(result.cpu).toFixed(0)} |`,
      );
    }
  } finally {
    await repo.cleanup();
    await rm(scratch, { recursive: true, force: true });
  }
}

const medianOf = (row: Row, pick: (sample: Sample) => number | undefined): number =>
  median(row.samples.flatMap((sample) => pick(sample) ?? []));

function recordStartup(
  version: Row,
  help: Row,
  node0: Row,
  summarize: Row,
  floor: Row,
  serve: Row,
  minimal: Row,
): void {
  const command = benchCommand('startup');
  const wall = (row: Row): number => medianOf(row, (s) => s.ms);
  const cpu = (row: Row): number => medianOf(row, (s) => s.cpuMs);
  record({
    part: 'startup',
    name: '`--version`, wall time',
    against: '`node -e 0`',
    value: wall(version),
    baseline: wall(node0),
    unit: 'ms',
    command,
    meaning: 'What the CLI adds to a bare Node start before it can answer at all.',
  });
  record({
    part: 'startup',
    name: '`--help`, wall time',
    against: '`node -e 0`',
    value: wall(help),
    baseline: wall(node0),
    unit: 'ms',
    command,
    meaning: 'Help is printed from the command table without loading any package.',
  });
  record({
    part: 'startup',
    name: '`summarize` (built-in model, 12-entry sample), wall time',
    against: 'a process that only imports the SDK',
    value: wall(summarize),
    baseline: wall(floor),
    unit: 'ms',
    command,
    meaning: 'A whole summary of a small repository on the built-in model, against the least any SDK program pays.',
  });
  if (Number.isFinite(cpu(summarize))) {
    record({
      part: 'startup',
      name: '`summarize` (built-in model, 12-entry sample), CPU time',
      against: 'a process that only imports the SDK',
      value: cpu(summarize),
      baseline: cpu(floor),
      unit: 'ms',
      command,
      meaning:
        'The same in CPU time (all threads and git children), which moves less with machine load than wall time.',
    });
  }
  record({
    part: 'startup',
    name: '`serve --stdio` until the first `server/discover` answer',
    against: 'a minimal SDK `McpServer` stdio server',
    value: wall(serve),
    baseline: wall(minimal),
    unit: 'ms',
    command,
    meaning: 'How long a host waits for the server to answer after spawning it.',
  });
}

export async function benchStartup(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  scratch = await mkdtemp(join(tmpdir(), 'mmi-bench-startup-'));
  const repo = await makeSampleRepo();
  try {
    const node0: Row = { label: '`node -e 0` (baseline)', samples: [] };
    const cheap: Row[] = [
      { label: '`--version`', samples: [] },
      { label: '`--help`', samples: [] },
      ...COMMANDS.map((command) => ({ label: `\`${command} --help\``, samples: [] as Sample[] })),
    ];
    const cheapArgs = [['--version'], ['--help'], ...COMMANDS.map((command) => [command, '--help'])];
    const floor: Row = { label: 'SDK import floor (baseline)', samples: [] };
    const summarize: Row = { label: '`summarize` (12-entry sample repository)', samples: [] };
    // --json prints every file's token count, so it always loads the tokenizer's encoder (the printed summary does not).
    const summarizeJson: Row = { label: '`summarize --json` (the same, with token counts)', samples: [] };
    const minimal: Row = { label: 'SDK `McpServer` stdio, one tool (baseline)', samples: [] };
    const serve: Row = { label: '`serve --stdio`', samples: [] };
    const summarizeBefore: Row = { label: '`summarize`, the other build (BENCH_STARTUP_BEFORE)', samples: [] };
    const serveBefore: Row = { label: '`serve --stdio`, the other build (BENCH_STARTUP_BEFORE)', samples: [] };
    const first: number[] = [];
    const firstAfterPause: number[] = [];
    const warm: number[] = [];
    const changed: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      node0.samples.push(await measure(['-e', '0']));
      for (const [index, args] of cheapArgs.entries()) {
        cheap[index]?.samples.push(await measure([CLI, ...args]));
        if (index % 3 === 2) node0.samples.push(await measure(['-e', '0']));
      }
      floor.samples.push(await measure([SDK_FLOOR]));
      summarize.samples.push(await measure([CLI, 'summarize', repo.root, '--quiet']));
      summarizeJson.samples.push(await measure([CLI, 'summarize', repo.root, '--quiet', '--json']));
      if (BEFORE !== undefined)
        summarizeBefore.samples.push(await measure([BEFORE, 'summarize', repo.root, '--quiet']));
      minimal.samples.push(await discoverOnce([MINIMAL_SERVER]));
      serve.samples.push(await discoverOnce([CLI, 'serve', '--stdio', '--root', repo.root]));
      if (BEFORE !== undefined)
        serveBefore.samples.push(await discoverOnce([BEFORE, 'serve', '--stdio', '--root', repo.root]));
      const calls = await toolCalls(repo.root, 0);
      first.push(calls.first);
      warm.push(median(calls.warm));
      changed.push(calls.changed);
      const paused = await toolCalls(repo.root, PAUSE_MS);
      firstAfterPause.push(paused.first);
      warm.push(median(paused.warm));
    }
    console.log(`\nStart-up, whole processes, median of ${RUNS} interleaved runs (node ${process.version})`);
    console.log('\n**Cheap commands against `node -e 0`**\n');
    summary(cheap, node0, '1.5x', 30);
    console.log('\n**The main job against the SDK import floor**\n');
    summary(
      BEFORE === undefined ? [summarize, summarizeJson] : [summarize, summarizeJson, summarizeBefore],
      floor,
      '1.5x',
    );
    console.log('\n**`serve --stdio` until the first `server/discover` answer**\n');
    summary(BEFORE === undefined ? [serve] : [serve, serveBefore], minimal, '1.3x');
    const warmMs = median(warm);
    recordStartup(cheap[0]!, cheap[1]!, node0, summarize, floor, serve, minimal);
    record({
      part: 'startup',
      name: 'first `tools/call` in a fresh `serve --stdio`',
      against: 'a later call in the same process',
      value: median(firstAfterPause),
      baseline: warmMs,
      unit: 'ms',
      command: benchCommand('startup'),
      meaning: `What a host's first summarize_repo call (built-in model, sent ${PAUSE_MS} ms after discover) costs beyond a warm one.`,
    });
    console.log(`\n**\`tools/call\` in one \`serve --stdio\` process (built-in model, one call), ms**\n`);
    console.log('| call | ms | vs warm |');
    console.log('|---|---:|---:|');
    console.log(
      `| first in a fresh process, sent at once after discover | ${median(first).toFixed(1)} | ${(median(first) / warmMs).toFixed(2)}x |`,
    );
    console.log(
      `| first in a fresh process, sent ${PAUSE_MS} ms after discover | ${median(firstAfterPause).toFixed(1)} | ${(median(firstAfterPause) / warmMs).toFixed(2)}x |`,
    );
    console.log(`| warm (median of the next ${WARM_CALLS}) | ${warmMs.toFixed(1)} | 1.00x |`);
    console.log(
      `| after a change to the tree (nothing cached usable) | ${median(changed).toFixed(1)} | ${(median(changed) / warmMs).toFixed(2)}x |`,
    );
  } finally {
    await repo.cleanup();
    await rm(scratch, { recursive: true, force: true });
  }
}
