/**
 * One measurement in a fresh process, for peak memory: `node --import tsx bench/listChild.ts ROOT MODE` with MODE
 * `idle` (modules loaded, nothing listed), `git`, `walker` (one listing) or `survey` (listing, ranking, inspection
 * and the pick prompt). Prints one JSON line; `maxRssMB` is the process's peak resident set.
 */
import { performance } from 'node:perf_hooks';

import { buildPickRequest } from '../src/flows/summarizeRepo/prompts.js';
import { openRepository } from '../src/repo/index.js';

const [root, mode] = process.argv.slice(2);
if (root === undefined || mode === undefined) throw new Error('usage: listChild.ts ROOT idle|git|walker|survey');

const start = performance.now();
let files = 0;
if (mode === 'git' || mode === 'walker') {
  files = (await (await openRepository(root, { listing: mode === 'git' ? 'auto' : 'walker' })).list()).paths.length;
} else if (mode === 'survey') {
  const survey = await (await openRepository(root)).survey();
  files = survey.total;
  buildPickRequest({ repoName: 'bench', audience: 'developer', maxFiles: 3, survey });
}
const ms = performance.now() - start;
console.log(JSON.stringify({ mode, files, ms, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
