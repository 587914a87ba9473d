/** `plan --from-audit`: observed rounds next to the declared ones, and a workflow inferred from a report. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { AuditReport } from '../../src/audit/types.js';
import { parseAuditReport } from '../../src/plan/auditReport.js';
import { buildPlan } from '../../src/plan/buildPlan.js';
import { observedRounds, requireToolFlow, workflowFromAudit } from '../../src/plan/fromAudit.js';
import { loadWorkflowFile } from '../../src/plan/loadWorkflow.js';

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
