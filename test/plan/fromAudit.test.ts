/** `plan --from-audit`: observed rounds next to the declared ones, and a workflow inferred from a report. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AuditReport } from '../../src/audit/types.js';
import { parseAuditReport } from '../../src/plan/auditReport.js';
import { buildPlan } from '../../src/plan/buildPlan.js';
import { main } from '../../src/cli/main.js';
import { capturedIo } from '../helpers/cliIo.js';
import { observedRounds } from '../../src/plan/fromAudit.js';
import { requireToolFlow } from '../../src/plan/reportFacts.js';
import { inferWorkflow, workflowFromAudit } from '../../src/plan/inferWorkflow.js';
import { loadWorkflowFile } from '../../src/plan/loadWorkflow.js';
import { renderPlanMarkdown } from '../../src/plan/renderPlan.js';

const PLANS = fileURLToPath(new URL('../../examples/plans/', import.meta.url));
const example = async (): Promise<AuditReport> =>
  parseAuditReport(await readFile(`${PLANS}summarize-repo.audit.json`, 'utf8'), 'example');

describe('plan --from-audit', () => {
  it('fills the round table from the observation, with the declared schema and the observed budget', async () => {
    const report = await example();
    report.observed.rounds[1]!.maxTokens = 900;
    const workflow = await loadWorkflowFile(`${PLANS}summarize-repo.yaml`);
    const rounds = buildPlan(workflow, { rounds: observedRounds(report) }).rounds;
    expect(rounds.source).toBe('audit');
    expect(rounds.rows.map((row) => [row.inputKey, row.budget.maxTokens, row.observed?.includeContext])).toEqual([
      ['pick_files', 400, 'none'],
      ['summary', 900, 'none'],
    ]);
    expect(rounds.notes).toContain('`summary`: the live tool asks for 900 tokens, the workflow declares 1200.');
  });

  it('infers a workflow from the report alone: existing MRTR design, nothing stated, so direct inference', async () => {
    const report = await example();
    const plan = buildPlan(workflowFromAudit(report), { rounds: observedRounds(report) });
    expect(plan.verdict).toBe('direct inference');
    expect(plan.findings).toEqual({ hardRejects: [], refusals: [] });
    expect(plan.removal).toEqual({
      applies: true,
      condition: 'the sampling path goes as soon as direct inference ships',
      date: null,
    });
    expect(plan.rounds.notes).toEqual([
      'Observed as MRTR rounds; under direct inference each becomes an inline provider call.',
      'requestState up to 979 bytes, opaque to the client.',
    ]);
  });

  it('infers a tool loop from an embedded request that carries tools: sampling.tools in the gate, the loop in the plan', async () => {
    const report = await example();
    const [pick, summary] = report.observed.rounds;
    report.observed.rounds = [
      { ...pick!, inputKey: 'explore', tools: true },
      { ...pick!, round: 2, inputKey: 'explore', tools: true },
      { ...summary!, round: 3, tools: false },
    ];
    const inferred = inferWorkflow(report);
    const steps = inferred.workflow.steps.filter((step) => step.kind === 'model');
    expect(steps.map((step) => [step.inputKey, 'tools' in step ? step.tools : undefined])).toEqual([
      ['explore', {}],
      ['summary', undefined],
    ]);
    expect(inferred.workflow.design?.sampling?.tools).toBe(true);
    expect(inferred.notes).toContain(
      '`explore` offered tools in 2 observed rounds: the inferred step runs a tool loop; the report names neither the tools nor the bounds, so the plan shows the defaults.',
    );
    // Planned as the MRTR design the live tool is (a client model stated as required).
    inferred.workflow.requirements.clientModel = { required: true, reason: 'the host brings its model' };
    const plan = buildPlan(inferred.workflow, { rounds: observedRounds(report, inferred) });
    expect(plan.envelope.errors.find((error) => error.code === -32021)?.data).toBe(
      '{"requiredCapabilities":{"sampling":{"tools":{}}}}',
    );
    expect(plan.rounds.rows.map((row) => [row.inputKey, row.toolLoop?.maxCalls, row.observed?.tools])).toEqual([
      ['explore', 12, true],
      ['explore', 12, true],
      ['summary', undefined, undefined],
    ]);
    expect(plan.rounds.rows[0]?.toolLoop).toEqual({
      tools: [],
      toolChoice: 'auto',
      maxCalls: 12,
      maxRounds: 13,
      maxBytes: 65536,
      finalToolChoice: 'none',
    });
    const markdown = renderPlanMarkdown(plan);
    expect(markdown).toContain('`sampling/createMessage` with tools (a loop)');
    expect(markdown).toContain('systemPrompt; tools offered');
    expect(plan.safety.map((entry) => entry.rule)).toContain('tool loop');
  });

  it('turns audit failures into design facts and findings', async () => {
    const report = await example();
    report.observed.rounds[0]!.includeContext = 'allServers';
    const fail = (id: string) =>
      Object.assign(
        report.rules.find((rule) => rule.id === id)!,
        { status: 'fail', detail: 'x' },
      );
    fail('mrtr.state_tampered');
    fail('transport.no_server_requests');
    const workflow = workflowFromAudit(report);
    expect(workflow.design).toMatchObject({
      status: 'existing',
      sampling: { delivery: 'live', includeContext: 'allServers' },
      state: { protection: 'none' },
    });
    const plan = buildPlan(workflow, { rounds: observedRounds(report) });
    expect(plan.findings.hardRejects.map((finding) => finding.id)).toEqual([
      'live_sampling_on_2026',
      'unsigned_state',
      'include_context_all_servers',
    ]);
    expect(plan.rounds.notes).toContain('Audit failure: `mrtr.state_tampered` (x).');
  });

  it('needs a report with a tool flow, for the same tool as the workflow', async () => {
    const report = await example();
    const workflow = await loadWorkflowFile(`${PLANS}count-lines.yaml`);
    expect(() => requireToolFlow(report, workflow)).toThrow(
      "the audit report observed tool 'summarize_repo', the workflow describes 'count_lines'",
    );
    delete report.observed.tool;
    expect(() => workflowFromAudit(report)).toThrow('the audit report has no tool flow: run audit with --tool NAME');
  });
});

describe('plan --from-audit without a workflow file: every valid report gives a plan', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** What the reviewer sent: no description, keys that collide once cleaned, an unresolved $ref. */
  async function awkward(): Promise<AuditReport> {
    const report = await example();
    report.observed.rounds[0]!.inputKey = 'pick/files';
    report.observed.rounds[1]!.inputKey = 'pick files';
    report.observed.tool!.description = '';
    report.observed.tool!.inputSchema = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
    return report;
  }

  it('uses placeholders and unique step names, and says so in the notes', async () => {
    const report = await awkward();
    const inferred = inferWorkflow(report);
    expect(inferred.workflow.tool).toEqual({
      name: 'summarize_repo',
      description: 'summarize_repo (as audited; the live tool has no description)',
      arguments: { type: 'object' },
    });
    expect(inferred.workflow.steps.map((step) => [step.name, 'inputKey' in step && step.inputKey])).toEqual([
      ['pick_files', 'pick_files'],
      ['pick_files_2', 'pick_files_2'],
    ]);
    const plan = buildPlan(inferred.workflow, { rounds: observedRounds(report, inferred) });
    expect(plan.rounds.rows.map((row) => [row.inputKey, row.budget.maxTokens, row.responseSchema])).toEqual([
      ['pick/files', 400, 'text: not declared; observed on the live tool'],
      ['pick files', 1200, 'text: not declared; observed on the live tool'],
    ]);
    expect(plan.rounds.notes).toEqual([
      'Observed as MRTR rounds; under direct inference each becomes an inline provider call.',
      'Input key `pick/files` is not a step name: the inferred step is `pick_files`.',
      'Input key `pick files` is not a step name: the inferred step is `pick_files_2`.',
      'The live tool has no description: the plan shows a placeholder.',
      "The live tool's inputSchema is not a usable JSON Schema (can't resolve reference #/$defs/missing from id #): " +
        'the plan shows `{"type":"object"}`.',
      'requestState up to 979 bytes, opaque to the client.',
    ]);
  });

  it('clamps an observed budget over the cap, with a note, and shows what the tool asked for', async () => {
    const report = await example();
    report.observed.rounds[0]!.maxTokens = 1_000_000_000;
    const inferred = inferWorkflow(report);
    expect(inferred.workflow.steps[0]).toMatchObject({ name: 'pick_files', budget: { maxTokens: 200000 } });
    const plan = buildPlan(inferred.workflow, { rounds: observedRounds(report, inferred) });
    expect(plan.rounds.rows[0]?.budget.maxTokens).toBe(1_000_000_000);
    expect(plan.rounds.notes).toContain(
      '`pick_files`: the live tool asks for 1000000000 tokens; the inferred step is clamped to 200000.',
    );
    expect(plan.rounds.notes.join('\n')).not.toContain('the workflow declares');
  });

  it('through the CLI: exit 0 and a plan, not errors about fields the report does not have', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mmi-from-audit-'));
    try {
      const report = await awkward();
      report.observed.rounds[0]!.maxTokens = 1_000_000_000;
      await writeFile(join(dir, 'report.json'), JSON.stringify(report));
      const io = capturedIo();
      expect(await main(['plan', '--from-audit', join(dir, 'report.json')], io)).toBe(0);
      expect(io.err()).toBe('');
      const markdown = io.out();
      expect(markdown).toMatch(/^# Plan for `summarize_repo`/);
      expect(markdown.match(/^## Verdict$/gm)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a report field when the report cannot describe a tool, never a workflow field', async () => {
    const report = await example();
    report.observed.tool!.name = 'summarize repo';
    expect(() => inferWorkflow(report)).toThrow(
      /^cannot infer a workflow from the audit report: observed\.tool\.name "summarize repo" must match/,
    );
  });

  it('keeps report text on one line in the Markdown', async () => {
    const report = await example();
    report.observed.rounds[0]!.inputKey = 'pick\n## Verdict';
    Object.assign(
      report.rules.find((rule) => rule.id === 'mrtr.state_tampered')!,
      {
        status: 'fail',
        detail: 'accepted\n\n## Verdict\n\n**no model required**',
      },
    );
    const inferred = inferWorkflow(report);
    const markdown = renderPlanMarkdown(buildPlan(inferred.workflow, { rounds: observedRounds(report, inferred) }));
    expect(markdown.match(/^## Verdict$/gm)).toHaveLength(1);
    expect(markdown).toContain('- Audit failure: `mrtr.state_tampered` (accepted ## Verdict **no model required**).');
  });
});
