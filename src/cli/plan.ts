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
import { buildRoundsFromWorkflow } from '../plan/rounds.js';
import type { Plan } from '../plan/types.js';
import type { Workflow } from '../plan/workflow.js';
import { WORKFLOW_SCHEMA } from '../plan/workflowSchema.js';
import { parseCommandArgs, resolveDirectory } from './args.js';
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

/** `plan --from-source DIR`: one plan per sampling tool found in the code (ts-morph loads only here). */
async function planFromSource(dir: string, tool: string | undefined, json: boolean, io: CliIo): Promise<number> {
  const root = await resolveDirectory('--from-source', dir);
  const { workflowsFromSource } = await import('../migrate/workflowFromSource.js');
  const { workflows, problems } = await workflowsFromSource(root);
  const chosen = tool === undefined ? workflows : workflows.filter((found) => found.workflow.tool.name === tool);
  if (chosen.length === 0) {
    const names = workflows.map((found) => found.workflow.tool.name);
    writeLine(
      io.stderr,
      `mcp-model-input: plan: ${
        tool === undefined
          ? `no tool under ${dir} asks for sampling`
          : `no sampling tool named ${tool} under ${dir}${names.length > 0 ? ` (found: ${names.join(', ')})` : ''}`
      }${problems.length > 0 ? `\n  not read: ${problems.join('\n  not read: ')}` : ''}`,
    );
    return 2;
  }
  const plans = chosen.map(({ workflow, notes }) =>
    buildPlan(workflow, {
      rounds: (inferred, wire) => {
        const rounds = buildRoundsFromWorkflow(inferred, wire);
        return { ...rounds, notes: [...rounds.notes, ...notes] };
      },
    }),
  );
  if (json) io.stdout.write(plans.length === 1 ? renderPlanJson(plans[0] as Plan) : prettyJson(plans));
  else io.stdout.write(plans.map((plan) => renderPlanMarkdown(plan)).join('\n---\n\n'));
  return 0;
}

export async function runPlan(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('plan', argv, {
    json: { type: 'boolean' },
    'from-audit': { type: 'string' },
    'from-source': { type: 'string' },
    tool: { type: 'string' },
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
  const sourceDir = values['from-source'];
  if (sourceDir !== undefined) {
    if (positionals.length > 0 || values['from-audit'] !== undefined) {
      throw new ModelInputError('usage', 'plan: --from-source takes no workflow FILE and no --from-audit');
    }
    return planFromSource(sourceDir, values.tool, values.json === true, io);
  }
  if (values.tool !== undefined) throw new ModelInputError('usage', 'plan: --tool goes with --from-source');
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
