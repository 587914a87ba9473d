/**
 * Model input per call of ask_repo and review_changes (bytes of prompt text sent to models, per question and per
 * call), on this repository and on the generated 100,000-file tree. Run alone: `npx tsx bench/toolsModelInput.ts`
 * (BENCH_DATA_DIR, BENCH_SCALE_FILES as for the other scale benchmarks). Each call is driven by the built-in
 * models on the `mrtr-no-sampling` profile: the prompts are the ones any model would get. Sizes only, no timing.
 */
import os from 'node:os';
import path from 'node:path';

import { ensureLargeRepo } from '../scripts/generateLargeRepo.js';
import { testModelTool } from '../src/entries/testing.js';
import { askRepo } from '../src/tools/askRepo/tool.js';
import { reviewChanges } from '../src/tools/reviewChanges/tool.js';

const DATA = process.env['BENCH_DATA_DIR'] ?? path.join(os.tmpdir(), 'mcp-model-input-bench');
const FILES = Number(process.env['BENCH_SCALE_FILES'] ?? 100_000);

interface Usage {
  modelCalls: number;
  inputBytes: number;
  maxInputBytes?: number;
}

async function measure(label: string, tool: typeof askRepo | typeof reviewChanges, root: string, args: object) {
  const run = await testModelTool(tool, { client: 'mrtr-no-sampling', args: { ...args }, server: { root } });
  if (run.result === undefined || run.result.isError === true) {
    console.log(`${label}: failed: ${JSON.stringify(run.error ?? run.result?.content)}`);
    return;
  }
  const out = run.result.structuredContent as {
    usage?: Usage;
    filesRead?: string[];
    files?: unknown[];
    pieces?: number;
  };
  const usage = out.usage ?? { modelCalls: 0, inputBytes: 0 };
  const per = usage.modelCalls === 0 ? 0 : Math.round(usage.inputBytes / usage.modelCalls);
  const extra =
    out.filesRead !== undefined
      ? `files read ${out.filesRead.length}`
      : `files ${out.files?.length ?? 0}, pieces ${out.pieces ?? 0}`;
  console.log(
    `${label}: ${usage.modelCalls} model questions, ${usage.inputBytes} bytes in all, ${per} bytes per question` +
      `${usage.maxInputBytes !== undefined ? `, largest ${usage.maxInputBytes}` : ''}; ${extra}`,
  );
}

const QUESTION = 'Where are secrets redacted before a prompt is sent to a model?';
const here = process.cwd();
await measure('this repository, ask_repo pick', askRepo, here, { question: QUESTION });
await measure('this repository, ask_repo explore', askRepo, here, { question: QUESTION, mode: 'explore' });
await measure('this repository, review_changes HEAD~10..HEAD', reviewChanges, here, { base: 'HEAD~10', head: 'HEAD' });
const large = await ensureLargeRepo(DATA, FILES);
const question = 'Where is value42 exported?';
await measure(`${FILES}-file tree, ask_repo pick`, askRepo, large.root, { question });
await measure(`${FILES}-file tree, ask_repo explore`, askRepo, large.root, { question, mode: 'explore' });
await measure(`${FILES}-file tree, review_changes HEAD~5..HEAD`, reviewChanges, large.root, {
  base: 'HEAD~5',
  head: 'HEAD',
});
