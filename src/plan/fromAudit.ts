/**
 * `plan --from-audit`: the round table as `audit` observed it on the live tool, next to what the
 * workflow declares (or what inferWorkflow.ts made of the report when there is no workflow file).
 */
import type { AuditReport } from '../audit/types.js';
import type { InferredWorkflow } from './inferWorkflow.js';
import { statusOf } from './reportFacts.js';
import {
  budgetOf,
  DEFAULT_MAX_RESPONSE_BYTES,
  finalLine,
  responseSchemaOf,
  toolLoopOf,
  validationOf,
} from './rounds.js';
import type { Plan, RoundRow, Wire } from './types.js';
import { isModelStep, type ModelStep, type Workflow } from './workflow.js';

/**
 * The round table from the report. With a workflow file, each observed key is matched to the declared
 * step and differences are noted; with an inferred workflow, the inference notes replace them.
 */
export function observedRounds(
  report: AuditReport,
  inferred?: InferredWorkflow,
): (workflow: Workflow, wire: Wire) => Plan['rounds'] {
  return (workflow, wire) => {
    const declared = new Map(workflow.steps.filter(isModelStep).map((step) => [step.inputKey, step]));
    const stepFor = (key: string): ModelStep | undefined => declared.get(inferred?.keys.get(key) ?? key);
    const malformed = statusOf(report, 'mrtr.malformed_response');
    const checked =
      malformed === 'pass'
        ? 'observed: a malformed answer gets -32602'
        : malformed === 'fail'
          ? 'observed: a malformed answer is NOT rejected'
          : 'observed: malformed answers not checked';
    const rows = report.observed.rounds.map((seen): RoundRow => {
      const step = stepFor(seen.inputKey);
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
        ...(step?.tools !== undefined && { toolLoop: toolLoopOf(step) }),
        observed: {
          ...(seen.includeContext !== undefined && { includeContext: seen.includeContext }),
          ...(seen.modelPreferences !== undefined && { modelPreferences: seen.modelPreferences }),
          systemPrompt: seen.systemPrompt,
          ...(seen.tools && { tools: true as const }),
        },
      };
    });
    const seenKeys = new Set(rows.map((row) => row.inputKey));
    const comparison =
      inferred !== undefined
        ? inferred.notes
        : [
            ...[...declared.keys()]
              .filter((key) => !seenKeys.has(key))
              .map((key) => `Declared but not observed: \`${key}\`.`),
            ...[...seenKeys].filter((key) => !declared.has(key)).map((key) => `Observed but not declared: \`${key}\`.`),
            ...rows.flatMap((row) => {
              const declaredTokens = declared.get(row.inputKey)?.budget.maxTokens ?? row.budget.maxTokens;
              return declaredTokens === row.budget.maxTokens
                ? []
                : [
                    `\`${row.inputKey}\`: the live tool asks for ${row.budget.maxTokens} tokens, the workflow declares ${declaredTokens}.`,
                  ];
            }),
          ];
    const notes = [
      ...(wire !== 'mrtr' && rows.length > 0
        ? [
            wire === 'inline'
              ? 'Observed as MRTR rounds; under direct inference each becomes an inline provider call.'
              : wire === 'legacy'
                ? 'Observed as MRTR rounds; the 2025-11-25 adapter sends each as a live sampling request instead.'
                : 'Observed as MRTR rounds; with no model required they go.',
          ]
        : []),
      ...comparison,
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
