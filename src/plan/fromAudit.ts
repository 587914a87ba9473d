/**
 * `plan --from-audit`: the round table as `audit` observed it on the live tool, next to what the
 * workflow declares; without a workflow file, a workflow inferred from the report.
 */
import type { AuditReport } from '../audit/types.js';
import { ModelInputError } from '../errors.js';
import { parseWorkflow } from './loadWorkflow.js';
import { budgetOf, DEFAULT_MAX_RESPONSE_BYTES, finalLine, responseSchemaOf, validationOf } from './rounds.js';
import type { Plan, RoundRow, Wire } from './types.js';
import { isModelStep, type Workflow, type WorkflowDesign } from './workflow.js';

const CONTEXT_RANK = ['none', 'thisServer', 'allServers'];

function statusOf(report: AuditReport, id: string): string | undefined {
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

export function observedRounds(report: AuditReport): (workflow: Workflow, wire: Wire) => Plan['rounds'] {
  return (workflow, wire) => {
    const declared = new Map(workflow.steps.filter(isModelStep).map((step) => [step.inputKey, step]));
    const malformed = statusOf(report, 'mrtr.malformed_response');
    const checked =
      malformed === 'pass'
        ? 'observed: a malformed answer gets -32602'
        : malformed === 'fail'
          ? 'observed: a malformed answer is NOT rejected'
          : 'observed: malformed answers not checked';
    const rows = report.observed.rounds.map((seen): RoundRow => {
      const step = declared.get(seen.inputKey);
      return {
        round: seen.round,
        inputKey: seen.inputKey,
        method: seen.method,
        responseSchema: step === undefined ? 'not declared' : responseSchemaOf(step),
        validation: step === undefined ? checked : `${validationOf(step, wire)}; ${checked}`,
        budget: {
          ...(step === undefined ? { maxTokens: 0, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES } : budgetOf(step)),
          ...(seen.maxTokens !== undefined && { maxTokens: seen.maxTokens }),
        },
        observed: {
          ...(seen.includeContext !== undefined && { includeContext: seen.includeContext }),
          ...(seen.modelPreferences !== undefined && { modelPreferences: seen.modelPreferences }),
          systemPrompt: seen.systemPrompt,
        },
      };
    });
    const seenKeys = new Set(rows.map((row) => row.inputKey));
    const budgetNotes = rows.flatMap((row) => {
      const step = declared.get(row.inputKey);
      const declaredTokens = step === undefined ? row.budget.maxTokens : step.budget.maxTokens;
      return declaredTokens === row.budget.maxTokens
        ? []
        : [
            `\`${row.inputKey}\`: the live tool asks for ${row.budget.maxTokens} tokens, the workflow declares ${declaredTokens}.`,
          ];
    });
    const notes = [
      ...(wire !== 'mrtr' && rows.length > 0
        ? [
            wire === 'inline'
              ? 'Observed as MRTR rounds; under direct inference each becomes an inline provider call.'
              : 'Observed as MRTR rounds; with no model required they go.',
          ]
        : []),
      ...[...declared.keys()]
        .filter((key) => !seenKeys.has(key))
        .map((key) => `Declared but not observed: \`${key}\`.`),
      ...[...seenKeys].filter((key) => !declared.has(key)).map((key) => `Observed but not declared: \`${key}\`.`),
      ...budgetNotes,
      ...(report.observed.requestState === undefined
        ? []
        : [
            `requestState up to ${report.observed.requestState.bytes} bytes, ${
              report.observed.requestState.readable ? 'readable by the client' : 'opaque to the client'
            }.`,
          ]),
      ...report.rules
        .filter((rule) => rule.status === 'fail')
        .map((rule) => `Audit failure: \`${rule.id}\` (${rule.detail}).`),
    ];
    const rounds = new Set(rows.map((row) => row.round)).size;
    const final = report.observed.completed
      ? finalLine('mrtr', rounds)
      : 'The audited flow did not reach a complete result.';
    return { wire, source: 'audit', rows, final: rows.length === 0 ? finalLine(wire, 0) : final, notes };
  };
}

function safeName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  return name === '' ? 'step' : name;
}

/** A workflow inferred from a report: what the live tool does, with nothing stated as a requirement. */
export function workflowFromAudit(report: AuditReport): Workflow {
  const tool = requireToolFlow(report);
  const keys = [...new Map(report.observed.rounds.map((seen) => [seen.inputKey, seen])).values()];
  const schema = tool.inputSchema as Record<string, unknown> | undefined;
  const worst = report.observed.rounds
    .map((seen) => seen.includeContext ?? 'none')
    .reduce((a, b) => (CONTEXT_RANK.indexOf(b) > CONTEXT_RANK.indexOf(a) ? b : a), 'none');
  const state = report.observed.requestState;
  const design: WorkflowDesign = {
    status: 'existing',
    ...(keys.length > 0 && {
      sampling: {
        delivery: statusOf(report, 'transport.no_server_requests') === 'fail' ? 'live' : 'mrtr',
        includeContext: (CONTEXT_RANK.includes(worst) ? worst : 'allServers') as 'none',
      },
    }),
    sessions: statusOf(report, 'transport.no_sessions') === 'fail',
    ...(state !== undefined && {
      state: {
        protection: statusOf(report, 'mrtr.state_tampered') !== 'pass' ? 'none' : state.readable ? 'hmac' : 'aead',
        affectsLogic: true,
      },
    }),
  };
  const workflow = {
    version: 1,
    ...(report.observed.server !== undefined && { server: report.observed.server }),
    tool: {
      name: tool.name,
      description: tool.description ?? `${tool.name} (as audited)`,
      arguments: schema !== undefined && schema['type'] === 'object' ? schema : { type: 'object' },
    },
    steps:
      keys.length === 0
        ? [{ name: 'call', kind: 'deterministic', purpose: 'The audited tool completes in one call.' }]
        : keys.map((seen) => ({
            name: safeName(seen.inputKey),
            kind: 'model',
            purpose: `Answer the embedded ${seen.method} request '${seen.inputKey}' (observed).`,
            inputKey: safeName(seen.inputKey),
            output: { text: 'not declared; observed on the live tool' },
            budget: { maxTokens: Math.max(1, seen.maxTokens ?? 1) },
          })),
    requirements: { clientModel: { required: false }, clientRevisions: ['2026-07-28'] },
    state: { secret: false },
    design,
  };
  return parseWorkflow(JSON.stringify(workflow), 'audit-report.json');
}
