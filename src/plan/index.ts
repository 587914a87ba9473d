/** The sampling-migration planner: workflow in, one-page plan out. */
export { parseAuditReport, loadAuditReport } from './auditReport.js';
export { buildPlan } from './buildPlan.js';
export type { BuildPlanOptions } from './buildPlan.js';
export { observedRounds } from './fromAudit.js';
export { inferWorkflow, workflowFromAudit } from './inferWorkflow.js';
export type { InferredWorkflow } from './inferWorkflow.js';
export { loadWorkflowFile, parseWorkflow } from './loadWorkflow.js';
export { prettyJson } from './prettyJson.js';
export { renderPlanJson, renderPlanMarkdown } from './renderPlan.js';
export type { Finding, Plan, RoundRow, Verdict } from './types.js';
export type { Workflow, WorkflowDesign, WorkflowStep } from './workflow.js';
export { WorkflowInvalidError } from './workflowInvalidError.js';
export type { WorkflowIssue } from './workflowInvalidError.js';
export { WORKFLOW_SCHEMA } from './workflowSchema.js';
