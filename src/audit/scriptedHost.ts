/**
 * The audit's host: answers embedded requests deterministically. Sampling gets a scripted text for
 * its input key when one is given (`--answers FILE`), else the built-in heuristic model's answer;
 * elicitation is declined and roots are empty. No network, no keys.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { createBuiltinModel } from '../models/builtin.js';
import type { CompletionModel } from '../models/modelSource.js';

export const SCRIPTED_MODEL_NAME = 'mcp-model-input/audit-script';

/** Input key -> answer text, or one text per occurrence of the key (the last one repeats). */
export type ScriptedAnswers = Record<string, string | string[]>;

export interface ScriptedHost {
  answer(key: string, request: { method: string; params: unknown }): Promise<unknown>;
}

export function createScriptedHost(
  answers: ScriptedAnswers = {},
  model: CompletionModel = createBuiltinModel(),
): ScriptedHost {
  const asked = new Map<string, number>();
  return {
    async answer(key, request) {
      switch (request.method) {
        case 'sampling/createMessage': {
          const scripted = answers[key];
          if (scripted === undefined) {
            return model.complete({ key, params: request.params as CreateMessageRequestParams });
          }
          const count = asked.get(key) ?? 0;
          asked.set(key, count + 1);
          const text = typeof scripted === 'string' ? scripted : (scripted[Math.min(count, scripted.length - 1)] ?? '');
          return {
            role: 'assistant',
            content: { type: 'text', text },
            model: SCRIPTED_MODEL_NAME,
            stopReason: 'endTurn',
          };
        }
        case 'elicitation/create':
          return { action: 'decline' };
        case 'roots/list':
          return { roots: [] };
        default:
          return undefined;
      }
    },
  };
}
