/** The live compliance probe: any MCP server, over stdio or HTTP, against the 2026-07-28 rules. */
export { renderAuditText } from './renderReport.js';
export { RULES } from './rules.js';
export type { RuleDefinition } from './rules.js';
export { runAudit } from './runAudit.js';
export type { AuditOptions } from './runAudit.js';
export { createScriptedHost } from './scriptedHost.js';
export { ToolArgumentsRejectedError } from './toolArgumentsRejectedError.js';
export type { ScriptedAnswers, ScriptedHost } from './scriptedHost.js';
export type { AuditReport, AuditTarget, ObservedRequest, RuleResult, RuleStatus } from './types.js';
