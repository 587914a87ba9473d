/**
 * Repository scale, part of `npm run bench`: a generated 100,000-file monorepo (scripts/generateLargeRepo.ts,
 * cached in the system temp directory — outside the project, where no linter, formatter or type checker walks it)
 * and a 100-file one, measured in the same run:
 *  - listing time: `git ls-files -co --exclude-standard -z` (the baseline) vs our git fast path vs our walker,
 *    interleaved, medians;
 *  - peak memory of one listing (and of a whole pick-prompt survey) in a fresh process;
 *  - pick-prompt bytes at 100 and at 100,000 files;
 *  - `npx repomix` collecting the same tree, when it can be run here.
 * Knobs: BENCH_DATA_DIR (default $TMPDIR/mcp-model-input-bench), BENCH_SCALE_FILES (default 100000), BENCH_SCALE_ROUNDS (default 7), BENCH_REPOMIX=0 to skip repomix,
 * BENCH_REPOMIX_TIMEOUT_MS (default 240000). Timings are never asserted.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { buildPickRequest } from '../src/flows/summarizeRepo/prompts.js';
import { openRepository } from '../src/repo/index.js';
import { ensureLargeRepo, generateLargeRepo } from '../scripts/generateLargeRepo.js';
import { benchCommand, record } from './figures.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = process.env['BENCH_DATA_DIR'] ?? path.join(os.tmpdir(), 'mcp-model-input-bench');
const FILES = Number(process.env['BENCH_SCALE_FILES'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_SCALE_ROUNDS'] ?? 7);
const REPOMIX = process.env['BENCH_REPOMIX'] !== '0';
const REPOMIX_TIMEOUT_MS = Number(process.env['BENCH_REPOMIX_TIMEOUT_MS'] ?? 240_000);
const REPOMIX_VERSION = '1.14.0';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const mb = (value: number): string => value.toFixed(0);

/** The baseline: git's own listing, its output read whole, as our fast path reads it. */
function gitLsFiles(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['ls-files', '-co', '--exclude-standard', '-z'],
      { cwd: root, maxBuffer: 1 << 30, encoding: 'buffer' },
      (error, stdout) => (error ? reject(error) : resolve(stdout.toString('utf8').split('\0').length - 1)),
    );
  });
}

async function timed<T>(task: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await task();
  return [performance.now() - start, value];
}

/** The listing as `summarize_repo` waits for it: until the survey's `listed` event (git's ignored query deferred). */
async function toolListing(root: string): Promise<[number, number]> {
  const start = performance.now();
  let listed: [number, number] | undefined;
  const repo = await openRepository(root, {
    onProgress: (event) => {
      if (event.phase === 'listed') listed = [performance.now() - start, event.files];
    },
  });
  await repo.survey();
  if (listed === undefined) throw new Error('no listed event');
  return listed;
}

async function benchListing(root: string): Promise<number> {
  const labels = ['git', 'tool', 'list', 'walker'] as const;
  const times = Object.fromEntries(labels.map((label) => [label, [] as number[]])) as Record<
    (typeof labels)[number],
    number[]
  >;
  const counts = { git: 0, tool: 0, list: 0, walker: 0 };
  for (let round = 0; round <= ROUNDS; round++) {
    // Interleaved, so that machine noise hits all of them alike; round 0 warms the caches and is not counted.
    const [git, gitCount] = await timed(() => gitLsFiles(root));
    const [tool, toolCount] = await toolListing(root);
    const [list, listing] = await timed(async () => (await openRepository(root)).list());
    const [walker, walkerListing] = await timed(async () => (await openRepository(root, { listing: 'walker' })).list());
    if (listing.source.kind !== 'git') throw new Error(`the fast path fell back: ${JSON.stringify(listing.source)}`);
    if (listing.paths.join('\0') !== walkerListing.paths.join('\0')) throw new Error('git path and walker differ');
    if (round === 0) continue;
    times.git.push(git);
    times.tool.push(tool);
    times.list.push(list);
    times.walker.push(walker);
    Object.assign(counts, {
      git: gitCount,
      tool: toolCount,
      list: listing.paths.length,
      walker: walkerListing.paths.length,
    });
  }
  const base = median(times.git);
  const row = (label: string, key: (typeof labels)[number], goal: string): string => {
    const value = median(times[key]);
    return `| ${label} | ${counts[key]} | ${value.toFixed(0)} | ${(value / base).toFixed(2)}x | ${goal} |`;
  };
  console.log(
    `\nListing ${FILES.toLocaleString('en-US')} generated files, median of ${ROUNDS} interleaved rounds (ms)`,
  );
  console.log('| listing | paths | ms | vs git ls-files | goal |');
  console.log('|---|---:|---:|---:|---|');
  console.log(row('`git ls-files -co --exclude-standard -z` (baseline, output read whole)', 'git', '—'));
  console.log(
    row('ours, git fast path, as `summarize_repo` lists (ignored entries asked for later)', 'tool', '≤ 1.5x'),
  );
  console.log(row('ours, git fast path, `list()` with the ignored entries (second git walk alongside)', 'list', '—'));
  console.log(row('ours, walker (`listing: "walker"`)', 'walker', '≤ 3x'));
  const files = FILES.toLocaleString('en-US');
  record({
    part: 'repo',
    name: `listing ${files} files as \`summarize_repo\` does (git fast path)`,
    against: '`git ls-files -co --exclude-standard -z`',
    value: median(times.tool),
    baseline: base,
    unit: 'ms',
    command: benchCommand('repo'),
    meaning: "In a git repository the listing is git's own plus classifying each path.",
  });
  record({
    part: 'repo',
    name: `listing ${files} files with the walker (no git)`,
    against: '`git ls-files -co --exclude-standard -z`',
    value: median(times.walker),
    baseline: base,
    unit: 'ms',
    command: benchCommand('repo'),
    meaning:
      'Outside git (or with `listing: "walker"`) the listing walks the tree and applies the ignore rules itself.',
  });
  return median(times.tool);
}

interface ChildReport {
  mode: string;
  files: number;
  ms: number;
  beforeMB: number;
  peakMB: number;
  maxRssMB: number;
}

function runChild(root: string, mode: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(HERE, 'listChild.ts'), root, mode],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim()) as ChildReport)
        : reject(new Error(`listChild ${mode} exited ${code}`)),
    );
  });
}

/** git's own peak RSS for the listing, via GNU time when it is installed (else undefined). */
function gitPeakMB(root: string): Promise<number | undefined> {
  if (!existsSync('/usr/bin/time')) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/time',
      ['-f', '%M', 'git', 'ls-files', '-co', '--exclude-standard', '-z'],
      { cwd: root, maxBuffer: 1 << 30, encoding: 'buffer' },
      (error, _stdout, stderr) => {
        const kb = Number(stderr.toString('utf8').trim().split('\n').at(-1));
        resolve(error || !Number.isFinite(kb) ? undefined : kb / 1024);
      },
    );
  });
}

async function benchMemory(root: string): Promise<void> {
  // A first run lets the TypeScript loader fill its cache, so that start-up does not set the peaks below.
  await runChild(root, 'git');
  const rows = [await runChild(root, 'git'), await runChild(root, 'walker'), await runChild(root, 'survey')];
  const gitPeak = await gitPeakMB(root);
  console.log(
    `\nMemory of one run in a fresh process (node ${process.version} with tsx), ${FILES.toLocaleString('en-US')} files (MB)`,
  );
  console.log('| run | paths | RSS before | peak RSS during the run | growth | process peak (maxRSS) | goal |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  const labels: Record<string, string> = {
    git: 'listing, git fast path (`list()`)',
    walker: 'listing, walker',
    survey: 'survey + pick prompt (git fast path)',
  };
  for (const row of rows) {
    const goal = row.mode === 'survey' ? '—' : '< 200 MB';
    console.log(
      `| ${labels[row.mode]} | ${row.files} | ${mb(row.beforeMB)} | ${mb(row.peakMB)} | ${mb(row.peakMB - row.beforeMB)} | ${mb(row.maxRssMB)} | ${goal} |`,
    );
  }
  if (gitPeak !== undefined) {
    console.log(`| the \`git ls-files -co\` process itself (GNU time) | — | — | ${mb(gitPeak)} | — | — | — |`);
  }
}

async function pickPromptRow(label: string, root: string): Promise<[string, number]> {
  const times: number[] = [];
  let row = '';
  let bytes = 0;
  for (let round = 0; round < 3; round++) {
    const [ms, survey] = await timed(async () => (await openRepository(root)).survey());
    times.push(ms);
    const { params, listed } = buildPickRequest({ repoName: 'bench', audience: 'developer', maxFiles: 3, survey });
    const text = (params.messages[0]?.content as { text: string }).text;
    bytes = Buffer.byteLength(text);
    const outlineLines = survey.outline.length;
    row = `| ${label} | ${survey.total} | ${Buffer.byteLength(text)} | ${outlineLines} | ${listed} | ${survey.inspected} | ${survey.history ? 'yes' : 'no'} |`;
  }
  return [`${row} ${median(times).toFixed(0)} |`, bytes];
}

/** Returns the pick prompt bytes at the large size. */
async function benchPickPrompt(small: string, large: string): Promise<number> {
  console.log('\nPick prompt against repository size (default budget 24,576 bytes; survey time median of 3)');
  console.log(
    '| tree | listed files | prompt bytes | outline lines | candidates shown | inspected | git history | survey ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|---:|');
  const [smallRow, smallBytes] = await pickPromptRow('100 generated files', small);
  console.log(smallRow);
  const [row, bytes] = await pickPromptRow(`${FILES.toLocaleString('en-US')} generated files`, large);
  console.log(row);
  record({
    part: 'repo',
    name: `pick prompt for ${FILES.toLocaleString('en-US')} files`,
    against: 'the pick prompt for 100 files',
    value: bytes,
    baseline: smallBytes,
    unit: 'bytes',
    command: benchCommand('repo'),
    meaning: 'What the model is shown to pick from stays within its budget (24,576 bytes by default) at any size.',
  });
  return bytes;
}

/**
 * `npx repomix` on the same tree, run from a scratch directory (never added to package.json): `--no-files`
 * collects the tree (ignore rules, binary detection) and writes its metadata and directory structure — the closest
 * thing repomix has to our listing plus pick prompt. BENCH_REPOMIX=full also packs every file.
 */
async function benchRepomix(root: string, ours: { listMs: number; promptBytes: number }): Promise<void> {
  console.log(`\nrepomix ${REPOMIX_VERSION} on the same tree (one run each; npx from a scratch directory)`);
  if (!REPOMIX) {
    console.log('skipped (BENCH_REPOMIX=0)');
    return;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-repomix-'));
  try {
    const run = (args: string[]): Promise<{ ms: number; ok: boolean; note: string }> =>
      new Promise((resolve) => {
        const start = performance.now();
        execFile(
          'npx',
          ['--yes', `repomix@${REPOMIX_VERSION}`, ...args],
          { cwd: scratch, timeout: REPOMIX_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1 << 26 },
          (error, _stdout, stderr) => {
            const ms = performance.now() - start;
            if (error === null) resolve({ ms, ok: true, note: '' });
            else if (error.killed)
              resolve({ ms, ok: false, note: `did not finish within ${REPOMIX_TIMEOUT_MS / 1000} s` });
            else
              resolve({ ms, ok: false, note: `failed: ${String(stderr).trim().split('\n').at(-1) ?? error.message}` });
          },
        );
      });
    const installed = await run(['--version']);
    if (!installed.ok) {
      console.log(`not available here (${installed.note})`);
      return;
    }
    const out = path.join(scratch, 'out.xml');
    const modes: [string, string[]][] = [['repomix --no-files (collect, metadata and tree)', ['--no-files']]];
    if (process.env['BENCH_REPOMIX'] === 'full') modes.push(['repomix (collect and pack every file)', []]);
    console.log('| run | ms | vs our listing | output bytes (model input) |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| ours: listing (git fast path) / pick prompt | ${ours.listMs.toFixed(0)} | 1.0x | ${ours.promptBytes} |`,
    );
    for (const [label, args] of modes) {
      const result = await run([root, '--quiet', '--no-security-check', ...args, '-o', out]);
      const bytes = result.ok ? (await stat(out)).size : undefined;
      console.log(
        result.ok
          ? `| ${label} | ${result.ms.toFixed(0)} | ${(result.ms / ours.listMs).toFixed(1)}x | ${bytes} |`
          : `| ${label} | ${result.note} | — | — |`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What the whole-repository facts add to a survey: the same survey with and without them, interleaved. */
export async function benchFacts(root: string, rounds = ROUNDS): Promise<void> {
  const without: number[] = [];
  const withFacts: number[] = [];
  let facts;
  for (let round = 0; round <= rounds; round++) {
    const [plain] = await timed(async () => (await openRepository(root)).survey(undefined, { facts: false }));
    const [full, survey] = await timed(async () => (await openRepository(root)).survey());
    facts = survey.facts;
    if (round === 0) continue;
    without.push(plain);
    withFacts.push(full);
  }
  const base = median(without);
  const value = median(withFacts);
  console.log(
    `\nRepository facts on ${FILES.toLocaleString('en-US')} files, median of ${rounds} interleaved rounds (ms)`,
  );
  console.log('| survey | ms | vs without facts | sizes read | bytes | manifests read |');
  console.log('|---|---:|---:|---:|---|---:|');
  console.log(`| without facts (baseline) | ${base.toFixed(0)} | 1.00x | — | — | — |`);
  record({
    part: 'repo',
    name: `survey of ${FILES.toLocaleString('en-US')} files with the repository facts`,
    against: 'the same survey without them',
    value,
    baseline: base,
    unit: 'ms',
    command: benchCommand('repo'),
    meaning: 'What the whole-repository facts (languages, manifests, entry points) add to the first round.',
  });
  console.log(
    `| with facts | ${value.toFixed(0)} | ${(value / base).toFixed(2)}x | ${facts?.mix.sampled ?? 0} | ` +
      `${facts?.mix.bytes ?? '—'} | ${facts?.manifests.length ?? 0} |`,
  );
}

export async function benchRepoScale(): Promise<void> {
  await mkdir(DATA, { recursive: true });
  const [ms, large] = await timed(() => ensureLargeRepo(DATA, FILES));
  console.log(
    `\nRepository scale: ${large.written.toLocaleString('en-US')} files, ${large.commits} commits in ${large.root}` +
      (large.cached ? ' (cached)' : ` (generated in ${(ms / 1000).toFixed(0)} s)`),
  );
  const smallRoot = await mkdtemp(path.join(os.tmpdir(), 'bench-small-'));
  try {
    await generateLargeRepo(smallRoot, 100);
    const listMs = await benchListing(large.root);
    await benchMemory(large.root);
    const promptBytes = await benchPickPrompt(smallRoot, large.root);
    await benchFacts(large.root);
    await benchRepomix(large.root, { listMs, promptBytes });
  } finally {
    await rm(smallRoot, { recursive: true, force: true });
  }
}
