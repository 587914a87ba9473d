/** Section 4: the round table, one row per model step, from the workflow as declared. */
import { neededModelSteps } from './decision.js';
import type { Plan, RoundRow, ToolLoopPlan, Wire } from './types.js';
import { isModelStep, type ModelStep, type Workflow } from './workflow.js';

export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;
/** The planner's default bounds of a tool loop. */
export const DEFAULT_TOOL_CALLS = 12;
export const DEFAULT_TOOL_BYTES = 64 * 1024;
export const SAMPLING_METHOD = 'sampling/createMessage';
export const INLINE_METHOD = 'provider call (server-owned model)';

export function responseSchemaOf(step: ModelStep): RoundRow['responseSchema'] {
  return 'schema' in step.output ? step.output.schema : `text: ${step.output.text}`;
}

/** The bounds of a step's tool loop, with the planner's defaults; undefined when the step offers no tools. */
export function toolLoopOf(step: ModelStep): ToolLoopPlan | undefined {
  const tools = step.tools;
  if (tools === undefined) return undefined;
  const maxCalls = tools.maxCalls ?? DEFAULT_TOOL_CALLS;
  return {
    tools: tools.names ?? [],
    toolChoice: 'auto',
    maxCalls,
    maxRounds: tools.maxRounds ?? maxCalls + 1,
    maxBytes: tools.maxBytes ?? DEFAULT_TOOL_BYTES,
    finalToolChoice: 'none',
  };
}

export function validationOf(step: ModelStep, wire: Wire): string {
  const answer =
    'schema' in step.output
      ? 'assistant result; text parsed as JSON and validated against the schema'
      : 'assistant result with non-empty text';
  const checks =
    step.tools === undefined
      ? answer
      : `${answer}; before it, each tool_use: an offered tool, a unique id, arguments valid against its inputSchema, ` +
        'answered by exactly one tool_result';
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

/** `variable`: tool loops make the number of rounds vary; `rounds` is then the most there can be. */
export function finalLine(wire: Wire, rounds: number, variable = false): string {
  if (wire === 'none') return 'No model rounds: one deterministic tools/call returns the complete result.';
  if (wire === 'inline') return 'No input_required rounds: the model calls run inline and one tools/call completes.';
  if (wire === 'legacy') {
    return (
      'No input_required rounds: in one tools/call the 2025-11-25 adapter sends each request live, in order, ' +
      'and completes with the last answer.'
    );
  }
  if (variable) return `At most round ${rounds + 1}: the retry carrying the last answer gets resultType "complete".`;
  return `Round ${rounds + 1}: the retry carrying the last answer gets resultType "complete".`;
}

/** What a tool loop does on the step's wire, in one note. */
export function toolLoopNote(row: RoundRow, wire: Wire): string[] {
  const loop = row.toolLoop;
  if (loop === undefined) return [];
  const tools = loop.tools.length === 0 ? 'its tools' : loop.tools.map((name) => `\`${name}\``).join(', ');
  const how =
    wire === 'mrtr'
      ? "each round is an input_required whose sampling/createMessage offers them with `toolChoice: auto`; the model answers with tool_use blocks, the server runs them itself and asks again with the conversation so far (the model's tool_use blocks, then a user message of tool_result blocks, one per id), rebuilt from the sealed state"
      : wire === 'legacy'
        ? 'each round is a live sampling/createMessage offering them with `toolChoice: auto`; the server runs the calls itself and asks again with their tool_result blocks, one per id'
        : "the server's provider is offered them through native tool calling with `toolChoice: auto`; the server runs the calls itself and asks again with their results";
  return [
    `\`${row.inputKey}\` runs a tool loop over ${tools}: ${how}. At most ${loop.maxCalls} tool calls, ` +
      `${loop.maxRounds} rounds and ${loop.maxBytes} bytes of tool results per run; when a bound is hit, one last ` +
      'round with `toolChoice: none` asks for the answer, and the result says which bound ended the loop.',
  ];
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
    ...(step.tools !== undefined && { toolLoop: toolLoopOf(step) }),
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
  const loopRounds = rows.reduce((sum, row) => sum + (row.toolLoop?.maxRounds ?? 1), 0);
  const final = finalLine(wire, loopRounds, loopRounds > rows.length);
  return {
    wire,
    source: 'workflow',
    rows,
    final,
    notes: [...notes, ...rows.flatMap((row) => toolLoopNote(row, wire))],
  };
}
