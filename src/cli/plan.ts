/** `mcp-model-input plan`: a workflow file (or an audit report) in, a one-page architecture out. */
import type { AuditReport } from '../audit/types.js';
import { ModelInputError } from '../errors.js';
import { loadAuditReport } from '../plan/auditReport.js';
import { buildPlan } from '../plan/buildPlan.js';
import { observedRounds } from '../plan/fromAudit.js';
import { requireToolFlow } from '../plan/reportFacts.js';
import { inferWorkflow } from '../plan/inferWorkflow.js';
import { loadWorkflowFile } from '../plan/loadWorkflow.js';
import { prettyJson } from '../plan/prettyJson.js';
import { renderPlanJson, renderPlanMarkdown } from '../plan/renderPlan.js';
import type { Plan } from '../plan/types.js';
import type { Workflow } from '../plan/workflow.js';
import { WORKFLOW_SCHEMA } from '../plan/workflowSchema.js';
import { parseCommandArgs } from './args.js';
import { PLAN_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

/** The plan for a workflow, an audit report, or both (the report then supplies the round table). */
function planFor(workflow: Workflow | undefined, report: AuditReport | undefined): Plan {
  if (report === undefined) return buildPlan(workflow as Workflow);
  requireToolFlow(report, workflow);
  if (workflow !== undefined) return buildPlan(workflow, { rounds: observedRounds(report) });
  const inferred = inferWorkflow(report);
  return buildPlan(inferred.workflow, { rounds: observedRounds(report, inferred) });
}

export async function runPlan(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('plan', argv, {
    json: { type: 'boolean' },
    'from-audit': { type: 'string' },
    schema: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    writeLine(io.stdout, PLAN_USAGE);
    return 0;
  }
  if (values.schema === true) {
    if (positionals.length > 0 || values['from-audit'] !== undefined) {
      throw new ModelInputError('usage', 'plan: --schema takes no other argument');
    }
    io.stdout.write(prettyJson(WORKFLOW_SCHEMA));
    return 0;
  }
  const reportPath = values['from-audit'];
  if (positionals.length > 1 || (positionals.length === 0 && reportPath === undefined)) {
    throw new ModelInputError('usage', 'plan: expects one workflow FILE, and/or --from-audit REPORT.json (see --help)');
  }
  const file = positionals[0];
  try {
    // Everything is validated and rendered before anything is printed: bad input never yields half a plan.
    const workflow = file === undefined ? undefined : await loadWorkflowFile(file);
    const report = reportPath === undefined ? undefined : await loadAuditReport(reportPath);
    const plan = planFor(workflow, report);
    io.stdout.write(values.json === true ? renderPlanJson(plan) : renderPlanMarkdown(plan));
    return 0;
  } catch (error) {
    if (
      error instanceof ModelInputError &&
      (error.code === 'workflow_invalid' || error.code === 'audit_report_invalid')
    ) {
      writeLine(io.stderr, `mcp-model-input: plan: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
