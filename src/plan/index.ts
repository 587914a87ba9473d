/**
 * `mcp-model-input/planner`: the sampling-migration planner (workflow in, one-page plan out) and the
 * live compliance audit whose report a plan can start from. Named exports only.
 */
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

// The live compliance probe whose report a plan can be built from.
export { RULES as AUDIT_RULES, renderAuditText, runAudit } from '../audit/index.js';
export type { AuditOptions, AuditReport, AuditTarget, RuleResult, RuleStatus } from '../audit/index.js';
