/** What the planner reads off an audit report, shared by the plan from an audit and the inferred workflow. */
import type { AuditReport } from '../audit/types.js';
import { ModelInputError } from '../errors.js';
import type { Workflow } from './workflow.js';

export function statusOf(report: AuditReport, id: string): string | undefined {
  return report.rules.find((rule) => rule.id === id)?.status;
}

export function requireToolFlow(
  report: AuditReport,
  workflow?: Workflow,
): NonNullable<AuditReport['observed']['tool']> {
  const tool = report.observed.tool;
  if (tool === undefined) {
    throw new ModelInputError('audit_report_invalid', 'the audit report has no tool flow: run audit with --tool NAME');
  }
  if (workflow !== undefined && workflow.tool.name !== tool.name) {
    throw new ModelInputError(
      'audit_report_invalid',
      `the audit report observed tool '${tool.name}', the workflow describes '${workflow.tool.name}'`,
    );
  }
  return tool;
}
