/**
 * `npm run eval -- DIR [--json FILE]`: summarizes every checkout under DIR that eval/expectations.json
 * names, with the built-in model (`summarize`'s default path: server-owned, one call), and scores name,
 * purpose, main language, the file to start at and picks. Checkouts are fetched by whoever runs it (never committed): a
 * directory per repository, named `owner--name`, `owner+name` or `name`. Prints one line per repository,
 * the misses, and the share met per measure.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runLocalSummarize } from '../src/app/localSummarize.js';
import { silentLogger } from '../src/logger.js';
import type { Expectation, Measure, Score } from './score.js';
import { findCheckout, MEASURES, scoreRepository } from './score.js';

interface Row {
  repo: string;
  shape: string;
  score: Score;
  picked: string[];
  summary: string;
}

function parseArgs(argv: readonly string[]): { dir: string; json?: string } {
  const args = [...argv];
  const jsonAt = args.indexOf('--json');
  const json = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const dir = args[0];
  if (dir === undefined) {
    console.error(
      'usage: npm run eval -- DIR [--json FILE]   (DIR holds one checkout per repository of eval/expectations.json)',
    );
    process.exit(2);
  }
  return { dir, ...(json !== undefined && { json }) };
}

async function summarize(root: string, maxFiles: number): Promise<{ summary: string; picked: string[] }> {
  const result = await runLocalSummarize({ root, args: { maxFiles }, logger: silentLogger });
  const structured = result.structuredContent as { summary?: string; picked?: string[] } | undefined;
  const text = result.content.find((block) => block.type === 'text');
  return {
    summary: structured?.summary ?? (text?.type === 'text' ? text.text : ''),
    picked: structured?.picked ?? [],
  };
}

async function main(): Promise<void> {
  const { dir, json } = parseArgs(process.argv.slice(2));
  const file = fileURLToPath(new URL('expectations.json', import.meta.url));
  const { repositories } = JSON.parse(await readFile(file, 'utf8')) as { repositories: Expectation[] };
  const dirs = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const rows: Row[] = [];
  const absent: string[] = [];
  for (const expectation of repositories) {
    const checkout = findCheckout(expectation.repo, dirs);
    if (checkout === undefined) {
      absent.push(expectation.repo);
      continue;
    }
    const { summary, picked } = await summarize(join(dir, checkout), expectation.picks.length);
    const score = scoreRepository(expectation, summary, picked);
    rows.push({ repo: expectation.repo, shape: expectation.shape, score, picked, summary });
    const marks = MEASURES.map((measure) => `${measure} ${score[measure] ? 'ok' : 'MISS'}`).join('  ');
    console.log(`${expectation.repo.padEnd(32)} ${marks}`);
    for (const miss of score.misses) console.log(`    ${miss}`);
  }
  console.log('');
  const totals = Object.fromEntries(
    MEASURES.map((measure: Measure) => [measure, rows.filter((row) => row.score[measure]).length]),
  ) as Record<Measure, number>;
  for (const measure of MEASURES) {
    const share = rows.length === 0 ? 0 : (100 * totals[measure]) / rows.length;
    console.log(`${measure.padEnd(13)} ${totals[measure]}/${rows.length} (${share.toFixed(1)}%)`);
  }
  if (absent.length > 0) console.log(`not found under ${dir}: ${absent.join(', ')}`);
  if (json !== undefined) await writeFile(json, `${JSON.stringify({ totals, rows, absent }, null, 2)}\n`);
}

await main();
