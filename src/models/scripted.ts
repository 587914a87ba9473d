/**
 * A scripted model: answers each input key with a fixed text (or the next of a list, the last one
 * repeating), records every request it was asked. For tests and demos of the host: deterministic,
 * and it tells whether a model was called at all.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { CompletionModel } from './modelSource.js';

export const SCRIPTED_MODEL_NAME = 'mcp-model-input/scripted';

/** Input key -> answer text, or one text per time the key is asked (the last one repeats). */
export type ScriptedAnswers = Readonly<Record<string, string | readonly string[]>>;

export interface ScriptedModel extends CompletionModel {
  /** Every request this model answered or refused, in order. */
  readonly calls: ReadonlyArray<{ key: string; params: CreateMessageRequestParams }>;
}

export function createScriptedModel(
  answers: ScriptedAnswers,
  options: { name?: string; fallback?: CompletionModel } = {},
): ScriptedModel {
  const calls: Array<{ key: string; params: CreateMessageRequestParams }> = [];
  const asked = new Map<string, number>();
  const name = options.name ?? SCRIPTED_MODEL_NAME;
  return {
    name,
    calls,
    async complete(request): Promise<CreateMessageResult> {
      calls.push({ key: request.key, params: request.params });
      const scripted = Object.hasOwn(answers, request.key) ? answers[request.key] : undefined;
      if (scripted === undefined) {
        if (options.fallback !== undefined) return options.fallback.complete(request);
        throw new Error(`the scripted model has no answer for '${request.key}'`);
      }
      const count = asked.get(request.key) ?? 0;
      asked.set(request.key, count + 1);
      const text = typeof scripted === 'string' ? scripted : (scripted[Math.min(count, scripted.length - 1)] ?? '');
      return { role: 'assistant', content: { type: 'text', text }, model: name, stopReason: 'endTurn' };
    },
  };
}
