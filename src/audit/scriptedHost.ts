/**
 * The audit's host: answers embedded requests deterministically. Sampling gets a scripted text for
 * its input key when one is given (`--answers FILE`), else the built-in heuristic model's answer
 * (the scripted model of models/scripted.ts, with the heuristic as its fallback); elicitation is
 * declined and roots are empty. No network, no keys.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../models/modelSource.js';
import { createScriptedModel, type ScriptedAnswers } from '../models/scripted.js';

export const SCRIPTED_MODEL_NAME = 'mcp-model-input/audit-script';

export type { ScriptedAnswers } from '../models/scripted.js';

export interface ScriptedHost {
  answer(key: string, request: { method: string; params: unknown }): Promise<unknown>;
}

export function createScriptedHost(
  answers: ScriptedAnswers = {},
  model: CompletionModel = createBuiltinModel(),
): ScriptedHost {
  const scripted = createScriptedModel(answers, { name: SCRIPTED_MODEL_NAME, fallback: model });
  return {
    async answer(key, request) {
      switch (request.method) {
        case 'sampling/createMessage':
          return scripted.complete({ key, params: request.params as CreateMessageRequestParams });
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
