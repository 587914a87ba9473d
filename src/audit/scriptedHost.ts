/**
 * The audit's host: answers embedded requests deterministically. Sampling gets a scripted text for
 * its input key when one is given (`--answers FILE`), else the answer of the deterministic model the composition
 * gives (the CLI: summarize_repo's built-in heuristic; the audit knows no tool); elicitation is
 * declined and roots are empty. No network, no keys.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../models/modelSource.js';
import { createScriptedModel, type ScriptedAnswers } from '../models/scripted.js';

export const SCRIPTED_MODEL_NAME = 'mcp-model-input/audit-script';

export type { ScriptedAnswers } from '../models/scripted.js';

export interface ScriptedHost {
  answer(key: string, request: { method: string; params: unknown }): Promise<unknown>;
}

/** Without a model from the composition, an unscripted question gets this plain text. */
const NO_MODEL: CompletionModel = {
  name: SCRIPTED_MODEL_NAME,
  complete: () =>
    Promise.resolve({
      role: 'assistant',
      content: { type: 'text', text: '(audit: no model)' },
      model: SCRIPTED_MODEL_NAME,
    }),
};

export function createScriptedHost(answers: ScriptedAnswers = {}, model: CompletionModel = NO_MODEL): ScriptedHost {
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
