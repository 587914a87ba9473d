/** Section 4: the round table, one row per model step, from the workflow as declared. */
import { neededModelSteps } from './decision.js';
import type { Plan, RoundRow, Wire } from './types.js';
import { isModelStep, type ModelStep, type Workflow } from './workflow.js';

export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;
export const SAMPLING_METHOD = 'sampling/createMessage';
export const INLINE_METHOD = 'provider call (server-owned model)';

export function responseSchemaOf(step: ModelStep): RoundRow['responseSchema'] {
  return 'schema' in step.output ? step.output.schema : `text: ${step.output.text}`;
}

export function validationOf(step: ModelStep, wire: Wire): string {
  const checks =
    'schema' in step.output
      ? 'assistant result; text parsed as JSON and validated against the schema'
      : 'assistant result with non-empty text';
  const rejection =
    wire === 'mrtr' ? 'otherwise -32602, state not advanced' : 'otherwise an isError result with a hint';
  const selection = (step.decides ?? []).includes('selection') ? '; every selected item checked server-side' : '';
  return `${checks}${selection}; at most the byte budget; ${rejection}`;
}

export function budgetOf(step: ModelStep): RoundRow['budget'] {
  return {
    maxTokens: step.budget.maxTokens,
    maxResponseBytes: step.budget.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ...(step.budget.maxPromptBytes !== undefined && { maxPromptBytes: step.budget.maxPromptBytes }),
  };
}

export function finalLine(wire: Wire, rounds: number): string {
  if (wire === 'none') return 'No model rounds: one deterministic tools/call returns the complete result.';
  if (wire === 'inline') return 'No input_required rounds: the model calls run inline and one tools/call completes.';
  if (wire === 'legacy') {
    return (
      'No input_required rounds: in one tools/call the 2025-11-25 adapter sends each request live, in order, ' +
      'and completes with the last answer.'
    );
  }
  return `Round ${rounds + 1}: the retry carrying the last answer gets resultType "complete".`;
}

export function buildRoundsFromWorkflow(workflow: Workflow, wire: Wire): Plan['rounds'] {
  const steps = wire === 'none' ? [] : neededModelSteps(workflow);
  const rows = steps.map((step, index): RoundRow => ({
    round: index + 1,
    inputKey: step.inputKey,
    method: wire === 'inline' ? INLINE_METHOD : SAMPLING_METHOD,
    responseSchema: responseSchemaOf(step),
    validation: validationOf(step, wire),
    budget: budgetOf(step),
  }));
  // Steps plain code can do get no round; say so rather than letting them vanish from the table.
  const notes =
    wire === 'none'
      ? []
      : workflow.steps
          .filter(isModelStep)
          .filter((step) => step.replaceableByCode === true)
          .map(
            (step) =>
              `\`${step.inputKey}\` (step '${step.name}') is marked replaceable by code: plain code does it, ` +
              'so it gets no round and no model call.',
          );
  return { wire, source: 'workflow', rows, final: finalLine(wire, rows.length), notes };
}
