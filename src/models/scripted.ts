/**
 * A scripted model: answers each input key with a fixed answer (or the next of a list, the last one
 * repeating), records every request it was asked. For tests and demos of the host: deterministic,
 * and it tells whether a model was called at all.
 *
 * An answer is a text (`stopReason: "endTurn"`), or a tool turn (tools in sampling, SEP-1577): an
 * optional text and the tool calls to make, answered as `tool_use` blocks with `stopReason: "toolUse"`.
 * Tool calls without an `id` get one unique to the model (`toolu_scripted_1`, `…_2`, …). The model
 * answers exactly what it was given, whatever the request offered: a test can script a model that
 * misbehaves (a tool nobody offered, a repeated id).
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ToolUseContent,
} from '@modelcontextprotocol/server';

import type { CompletionModel } from './modelSource.js';

export const SCRIPTED_MODEL_NAME = 'mcp-model-input/scripted';

/** One scripted tool call; `input` defaults to `{}`. */
export interface ScriptedToolCall {
  name: string;
  input?: Record<string, unknown>;
  id?: string;
}

/** An answer that calls tools: `{ toolUse: [{ name: 'read_file', input: { path: 'README.md' } }] }`. */
export interface ScriptedToolTurn {
  /** Text before the calls (a model's short reasoning), if any. */
  text?: string;
  toolUse: readonly ScriptedToolCall[];
}

export type ScriptedAnswer = string | ScriptedToolTurn;

/** Input key -> answer, or one answer per time the key is asked (the last one repeats). */
export type ScriptedAnswers = Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>;

export interface ScriptedModelOptions {
  name?: string;
  /** Answers keys the script does not name. */
  fallback?: CompletionModel;
  /** Whether the model declares it can use tools. Default: true when some answer is a tool turn. */
  usesTools?: boolean;
}

export interface ScriptedModel extends CompletionModel {
  /** Every request this model answered or refused, in order. */
  readonly calls: ReadonlyArray<{ key: string; params: CreateMessageRequestParams }>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isToolCall(value: unknown): value is ScriptedToolCall {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    (value.id === undefined || typeof value.id === 'string') &&
    (value.input === undefined || isRecord(value.input))
  );
}

/** Whether `value` is one scripted answer: a string, or `{ text?, toolUse: [{ name, input?, id? }, …] }`. */
export function isScriptedAnswer(value: unknown): value is ScriptedAnswer {
  if (typeof value === 'string') return true;
  return (
    isRecord(value) &&
    (value.text === undefined || typeof value.text === 'string') &&
    Array.isArray(value.toolUse) &&
    value.toolUse.length > 0 &&
    value.toolUse.every(isToolCall)
  );
}

/** Whether `value` is a whole script: an object of input key -> answer or non-empty list of answers. */
export function isScriptedAnswers(value: unknown): value is ScriptedAnswers {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (answer) => isScriptedAnswer(answer) || (Array.isArray(answer) && answer.every(isScriptedAnswer)),
    )
  );
}

function hasToolTurn(answers: ScriptedAnswers): boolean {
  return Object.values(answers).some((answer) =>
    (Array.isArray(answer) ? answer : [answer]).some((one: ScriptedAnswer) => typeof one !== 'string'),
  );
}

/**
 * A sampling answer that calls tools: the text (when not empty), then one `tool_use` block per call, with
 * `stopReason: "toolUse"`. A call without an `id` gets `idOf(its index)`.
 */
export function toolUseAnswer(
  turn: { text?: string; calls: readonly ScriptedToolCall[] },
  model: string,
  idOf: (index: number) => string,
): CreateMessageResultWithTools {
  const uses = turn.calls.map((call, index): ToolUseContent => ({
    type: 'tool_use',
    id: call.id ?? idOf(index),
    name: call.name,
    input: { ...call.input },
  }));
  const text = turn.text === undefined || turn.text === '' ? [] : [{ type: 'text' as const, text: turn.text }];
  return { role: 'assistant', content: [...text, ...uses], model, stopReason: 'toolUse' };
}

export function createScriptedModel(answers: ScriptedAnswers, options: ScriptedModelOptions = {}): ScriptedModel {
  const calls: Array<{ key: string; params: CreateMessageRequestParams }> = [];
  const asked = new Map<string, number>();
  const name = options.name ?? SCRIPTED_MODEL_NAME;
  let nextId = 1;

  return {
    name,
    usesTools: options.usesTools ?? hasToolTurn(answers),
    calls,
    async complete(request): Promise<CreateMessageResult | CreateMessageResultWithTools> {
      calls.push({ key: request.key, params: request.params });
      const scripted = Object.hasOwn(answers, request.key) ? answers[request.key] : undefined;
      if (scripted === undefined) {
        if (options.fallback !== undefined) return options.fallback.complete(request);
        throw new Error(`the scripted model has no answer for '${request.key}'`);
      }
      const count = asked.get(request.key) ?? 0;
      asked.set(request.key, count + 1);
      const list: readonly ScriptedAnswer[] = Array.isArray(scripted) ? scripted : [scripted as ScriptedAnswer];
      const answer = list[Math.min(count, list.length - 1)] ?? '';
      if (typeof answer !== 'string')
        return toolUseAnswer({ text: answer.text, calls: answer.toolUse }, name, () => `toolu_scripted_${nextId++}`);
      return { role: 'assistant', content: { type: 'text', text: answer }, model: name, stopReason: 'endTurn' };
    },
  };
}
