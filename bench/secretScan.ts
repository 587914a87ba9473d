/**
 * Secret handling, part of `npm run bench`: what the deny list and the redactor add to a whole `summarize_repo`
 * call (built-in model, server-owned, in one call), as a ratio against the same call without them, measured in the
 * same run with interleaved rounds:
 *  - a small repository: the credential corpus of test/repo/secrets/corpus.ts (ordinary files full of secrets and
 *    secret files by name), the worst case for the redactor; and the tests' sample repository (no secrets);
 *  - the generated 100,000-file tree (scripts/generateLargeRepo.ts, shared with bench/repoScale.ts).
 * Also: loading secretlint once per process (a fresh `node`), and the recommended preset's coverage table.
 * Knobs: BENCH_SECRET_ROUNDS (default 15 small, a third of it large). Timings are never asserted.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

import { runFlow, type SealedFlow } from '../src/flows/engine.js';
import { createSummarizeRepoFlow } from '../src/flows/summarizeRepo/flow.js';
import { summarizeRepoInput } from '../src/flows/summarizeRepo/schema.js';
import { silentLogger } from '../src/logger.js';
import { parseModelSpec } from '../src/models/sources.js';
import { openRepositoryWith } from '../src/repo/repository.js';
import { keptScans } from '../src/repo/secrets/scanner.js';
import { createSecretFileFilter } from '../src/repo/secrets/secretFiles.js';
import { keptCounts } from '../src/repo/tokens.js';
import type { ToolContext } from '../src/flows/tool.js';
import { createEphemeralKeyRing, createStateCodec } from '../src/state/index.js';
import { ensureLargeRepo } from '../scripts/generateLargeRepo.js';
import { makeSampleRepo, makeTree } from '../test/helpers/fixtureRepo.js';
import { ordinaryFiles, secretFiles } from '../test/repo/secrets/corpus.js';
import { benchCommand, record } from './figures.js';
import { coverageTable } from './secretCoverage.js';

const ROUNDS = Number(process.env['BENCH_SECRET_ROUNDS'] ?? 15);
const DATA = process.env['BENCH_DATA_DIR'] ?? path.join(os.tmpdir(), 'mcp-model-input-bench');
const FILES = Number(process.env['BENCH_SCALE_FILES'] ?? 100_000);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const ctx: ToolContext = {
  principal: 'bench',
  clientCapabilities: {},
  requestState: undefined,
  inputResponses: undefined,
  signal: new AbortController().signal,
  progress: async () => undefined,
  log: async () => undefined,
};
const engine = {
  codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
  models: parseModelSpec('builtin'),
  logger: silentLogger,
};
const NO_SECRET_FILES = { isSecret: () => false };

/** One whole summarize_repo call: a fresh repository object (so the listing is redone), maxFiles 8. */
async function oneCall(root: string, scanning: boolean): Promise<number> {
  const filter = scanning ? createSecretFileFilter() : NO_SECRET_FILES;
  const flow = createSummarizeRepoFlow(() => openRepositoryWith(root, {}, filter), {}, { redact: scanning });
  // Every call reads the same files: forgotten, their scans and counts are made again, as in a call on files not read
  // before (what the redactor costs is the subject here, not what the digest caches spare).
  keptScans().clear();
  keptCounts().clear();
  const start = performance.now();
  const result = await runFlow(flow, summarizeRepoInput.parse({ maxFiles: 8 }), ctx, engine);
  const ms = performance.now() - start;
  if ('isError' in result && result.isError === true) throw new Error('summarize_repo failed in the bench');
  return ms;
}

async function compare(label: string, root: string, rounds: number): Promise<string> {
  const times = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round <= rounds; round++) {
    // Interleaved, in alternating order; round 0 warms caches (and loads secretlint) and is not counted.
    const first = round % 2 === 0;
    const a = await oneCall(root, first);
    const b = await oneCall(root, !first);
    const [on, off] = first ? [a, b] : [b, a];
    if (round > 0) {
      times.on.push(on);
      times.off.push(off);
    }
  }
  const on = median(times.on);
  const off = median(times.off);
  record({
    part: 'secrets',
    name: `summarize_repo (built-in model, maxFiles 8) on the ${label}`,
    against: 'the same call without the secret-file deny list and the redactor',
    value: on,
    baseline: off,
    unit: 'ms',
    command: benchCommand('secrets'),
    meaning: 'What keeping secrets out of the model input costs a whole call, on files not read before.',
  });
  return `| ${label} | ${off.toFixed(1)} | ${on.toFixed(1)} | ${(on / off).toFixed(3)}x (${((on / off - 1) * 100).toFixed(1)}%) |`;
}

/** Loading secretlint in a fresh process: paid once, on the first scan. */
async function loadCost(): Promise<number> {
  const script =
    'const t = performance.now(); await Promise.all([import("@secretlint/core"), ' +
    'import("@secretlint/secretlint-rule-preset-recommend")]); console.log(performance.now() - t);';
  const samples: number[] = [];
  for (let index = 0; index < 5; index++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    samples.push(Number(stdout.trim()));
  }
  return median(samples);
}

export async function benchSecretScan(): Promise<void> {
  console.log(`\nSecrets: one summarize_repo call (builtin model, maxFiles 8), median of interleaved rounds (ms)`);
  console.log('| repository | without deny list and redactor | with | ratio |');
  console.log('|---|---:|---:|---:|');
  const small = await makeTree({ ...ordinaryFiles(), ...secretFiles() }, 'bench-secrets-');
  try {
    console.log(
      await compare(
        `credential corpus (${Object.keys({ ...ordinaryFiles(), ...secretFiles() }).length} files)`,
        small.root,
        ROUNDS,
      ),
    );
  } finally {
    await small.cleanup();
  }
  const sample = await makeSampleRepo();
  try {
    console.log(await compare('sample repository (no secrets)', sample.root, ROUNDS));
  } finally {
    await sample.cleanup();
    await sample.outside.cleanup();
  }
  await mkdir(DATA, { recursive: true });
  const large = await ensureLargeRepo(DATA, FILES);
  console.log(
    await compare(
      `generated tree (${large.written.toLocaleString('en-US')} files)`,
      large.root,
      Math.max(3, Math.floor(ROUNDS / 3)),
    ),
  );
  console.log(
    `\nLoading secretlint (core + recommended preset) in a fresh process, once: ${(await loadCost()).toFixed(0)} ms (median of 5)`,
  );
  console.log('\nCoverage of the credential corpus (preset alone with default options, and our configuration):');
  for (const line of await coverageTable()) console.log(line);
}

if (process.argv[1]?.endsWith('secretScan.ts')) await benchSecretScan();
