/**
 * The redactor on the worst inputs of issue 26 (a summary answer of GitHub tokens joined by `-`, AWS key IDs joined
 * by `.`, JWT-shaped text), at n and 4n characters up to the answer cap (256 KiB): the work counted (characters
 * handed to the rules, characters the widening of findings looked at), the time, and the longest turn of the event
 * loop while it ran, each as a ratio (4n against n). Bounded: three inputs, two sizes, ROUNDS rounds each.
 * Run: `npm run bench -- --only redact` (docs/performance.md shows its figures). Timings are never asserted.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

import { mergeSteps } from '../src/repo/secrets/merge.js';
import { keptScans, redactText, scannedChars } from '../src/repo/secrets/scanner.js';
import { worstInputs } from '../test/repo/secrets/worstInputs.js';
import { benchCommand, record } from './figures.js';

const ROUNDS = Number(process.env['BENCH_REDACT_ROUNDS'] ?? 3);
const SMALL = 62_000;
const LARGE = 248_000;

/** What each of worstInputs' inputs is, as the performance page names it. */
const INPUT_NAMES: Record<string, string> = {
  github_tokens_dash: 'GitHub tokens joined by `-`',
  aws_ids_dot: 'AWS key IDs joined by `.`',
  jwt_shaped: 'JWT-shaped text',
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

interface Run {
  ms: number;
  work: number;
  maxTurnMs: number;
}

async function measure(text: string): Promise<Run> {
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    keptScans().clear();
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const work = scannedChars() + mergeSteps();
    const start = performance.now();
    await redactText(text);
    const ms = performance.now() - start;
    histogram.disable();
    runs.push({ ms, work: scannedChars() + mergeSteps() - work, maxTurnMs: histogram.max / 1e6 });
  }
  return {
    ms: median(runs.map((run) => run.ms)),
    work: runs[0]!.work,
    maxTurnMs: median(runs.map((run) => run.maxTurnMs)),
  };
}

/** The three worst inputs at n and 4n characters: work (exact) and time, 4n against n. */
export async function benchRedactCost(): Promise<void> {
  await redactText('warm up ghp_x AKIA eyJ');
  const small = worstInputs(SMALL);
  const large = worstInputs(LARGE);
  console.log(`\nThe redactor at ${SMALL} and ${LARGE} characters, median of ${ROUNDS} rounds`);
  console.log(`| input | work 4n/n | time 4n/n | longest event-loop turn at 4n / time at 4n |`);
  console.log(`| --- | --- | --- | --- |`);
  for (const name of Object.keys(small)) {
    const n = await measure(small[name]!);
    const n4 = await measure(large[name]!);
    console.log(
      `| ${name} | ${(n4.work / n.work).toFixed(2)} | ${(n4.ms / n.ms).toFixed(2)} | ${(n4.maxTurnMs / n4.ms).toFixed(2)} |`,
    );
    record({
      part: 'redact',
      name: `redactor, ${INPUT_NAMES[name] ?? name}, ${LARGE.toLocaleString('en-US')} characters`,
      against: `the same at ${SMALL.toLocaleString('en-US')} characters`,
      value: n4.ms,
      baseline: n.ms,
      unit: 'ms',
      command: benchCommand('redact'),
      meaning:
        `Counted work grew ${(n4.work / n.work).toFixed(2)}x for 4x the input (linear); ` +
        `the longest event-loop turn was ${((n4.maxTurnMs / n4.ms) * 100).toFixed(0)}% of the scan.`,
    });
  }
}

if (process.argv[1]?.endsWith('redactCost.ts')) await benchRedactCost();
