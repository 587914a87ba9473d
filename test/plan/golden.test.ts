/**
 * The example workflows in examples/plans/ and their expected plans, byte for byte: through the
 * library and through the CLI, in-process (`main(argv, io)`) and once as the built binary (`dist/cli.js` in a
 * child process, its stdout piped: the bytes a user redirects to a file; loadWorkflow.test.ts runs the binary on
 * an invalid workflow). Golden files are also checked to be Prettier-stable.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import prettier from 'prettier';
import { describe, expect, it } from 'vitest';

import { loadAuditReport } from '../../src/plan/auditReport.js';
import { buildPlan } from '../../src/plan/buildPlan.js';
import { observedRounds } from '../../src/plan/fromAudit.js';
import { loadWorkflowFile } from '../../src/plan/loadWorkflow.js';
import { renderPlanJson, renderPlanMarkdown } from '../../src/plan/renderPlan.js';
import { runCli } from '../helpers/cliIo.js';
import { CLI } from '../helpers/rawChannel.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLANS = `${ROOT}examples/plans/`;

const EXAMPLES = [
  { name: 'summarize-repo', verdict: 'temporary MRTR compatibility', hardRejects: 0, refusals: 0 },
  { name: 'explore-repo', verdict: 'temporary MRTR compatibility', hardRejects: 0, refusals: 0 },
  { name: 'count-lines', verdict: 'no model required', hardRejects: 0, refusals: 0 },
  { name: 'every-hard-reject', verdict: 'direct inference', hardRejects: 8, refusals: 0 },
  { name: 'every-refusal', verdict: 'no model required', hardRejects: 0, refusals: 4 },
] as const;

const read = (file: string) => readFile(`${PLANS}${file}`, 'utf8');

describe.each(EXAMPLES)('example $name', ({ name, verdict, hardRejects, refusals }) => {
  it('renders exactly the golden Markdown and JSON', async () => {
    const plan = buildPlan(await loadWorkflowFile(`${PLANS}${name}.yaml`));
    expect(plan.verdict).toBe(verdict);
    expect(plan.findings.hardRejects).toHaveLength(hardRejects);
    expect(plan.findings.refusals).toHaveLength(refusals);
    expect(renderPlanMarkdown(plan)).toBe(await read(`${name}.plan.md`));
    expect(renderPlanJson(plan)).toBe(await read(`${name}.plan.json`));
  });

  it('has exactly one verdict, in the last section', async () => {
    const markdown = await read(`${name}.plan.md`);
    const verdicts = ['direct inference', 'temporary MRTR compatibility', 'no model required'];
    const finalSection = markdown.slice(markdown.lastIndexOf('## Verdict'));
    expect(finalSection).toBe(`## Verdict\n\n**${verdict}**\n`);
    expect(markdown.match(/^## Verdict$/gm)).toHaveLength(1);
    expect(verdicts.filter((candidate) => finalSection.includes(candidate))).toEqual([verdict]);
  });
});

describe('golden files', () => {
  it('the CLI prints the same bytes (Markdown by default from the binary, --json)', async () => {
    const markdown = await run(process.execPath, [CLI, 'plan', `${PLANS}every-hard-reject.yaml`]);
    expect(markdown.stdout).toBe(await read('every-hard-reject.plan.md'));
    const json = await runCli(['plan', '--json', `${PLANS}summarize-repo.yaml`]);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(await read('summarize-repo.plan.json'));
  });

  it('plan --from-audit fills the round table from the checked-in audit report', async () => {
    const workflow = await loadWorkflowFile(`${PLANS}summarize-repo.yaml`);
    const report = await loadAuditReport(`${PLANS}summarize-repo.audit.json`);
    const plan = buildPlan(workflow, { rounds: observedRounds(report) });
    expect(renderPlanMarkdown(plan)).toBe(await read('summarize-repo.from-audit.plan.md'));
    const cli = await runCli([
      'plan',
      `${PLANS}summarize-repo.yaml`,
      '--from-audit',
      `${PLANS}summarize-repo.audit.json`,
    ]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(await read('summarize-repo.from-audit.plan.md'));
  });

  it('are left unchanged by Prettier, so `prettier --check` and the byte comparison agree', async () => {
    const options = { ...(await prettier.resolveConfig(`${PLANS}x.md`)) };
    for (const { name } of EXAMPLES) {
      for (const [file, parser] of [
        [`${name}.plan.md`, 'markdown'],
        [`${name}.plan.json`, 'json'],
      ] as const) {
        const text = await read(file);
        expect(await prettier.format(text, { ...options, parser }), file).toBe(text);
      }
    }
  });
});
