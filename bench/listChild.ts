/**
 * One measurement in a fresh process, for memory: `node --expose-gc --import tsx bench/listChild.ts ROOT MODE`, with
 * MODE `git`, `walker` (one listing) or `survey` (listing, ranking, inspection and the pick prompt). Prints one
 * JSON line: the resident set just before the run (modules loaded, after a GC), its peak during the run (sampled
 * every 2 ms and at the end, while the result is still held), and the process's lifetime peak (`maxRSS`, which
 * also counts the TypeScript loader's start-up).
 */
import { performance } from 'node:perf_hooks';

import { buildPickRequest } from '../src/flows/summarizeRepo/prompts.js';
import { openRepository } from '../src/repo/index.js';

const [root, mode] = process.argv.slice(2);
if (root === undefined || mode === undefined) throw new Error('usage: listChild.ts ROOT git|walker|survey');

const MB = 1024 * 1024;
(globalThis as { gc?: () => void }).gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);

const start = performance.now();
let files = 0;
let held: unknown;
if (mode === 'git' || mode === 'walker') {
  held = await (await openRepository(root, { listing: mode === 'git' ? 'auto' : 'walker' })).list();
  files = (held as { paths: string[] }).paths.length;
} else if (mode === 'survey') {
  const survey = await (await openRepository(root)).survey();
  files = survey.total;
  held = buildPickRequest({ repoName: 'bench', audience: 'developer', maxFiles: 3, survey });
}
const ms = performance.now() - start;
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(sampler);
console.log(
  JSON.stringify({
    mode,
    files,
    ms,
    beforeMB: before / MB,
    peakMB: peak / MB,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    held: held !== undefined,
  }),
);
