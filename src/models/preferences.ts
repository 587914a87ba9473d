/**
 * From a step's `modelPreferences` to a model, for a server-owned source that names two models
 * (`openai:CHEAP+STRONG`):
 *
 * 1. hints first: the first `hints[].name` that is a substring of one of the two model ids picks it;
 * 2. otherwise the priorities: `intelligencePriority` above both `costPriority` and `speedPriority`
 *    picks STRONG, anything else CHEAP; a request with no priorities at all gets STRONG.
 *
 * summarize_repo's `pick_files` asks `{costPriority: 0.8, intelligencePriority: 0.2}` (CHEAP) and
 * `summary` asks `{costPriority: 0.2, intelligencePriority: 0.8}` (STRONG). A source with one model
 * serves every step with it; per-step assignments (`pick=…,summary=…`) override all of this.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import type { CompletionModel } from './modelSource.js';

export type ModelTier = 'cheap' | 'strong';

type Preferences = CreateMessageRequestParams['modelPreferences'];

export function preferredTier(preferences: Preferences): ModelTier {
  const cost = preferences?.costPriority;
  const speed = preferences?.speedPriority;
  const intelligence = preferences?.intelligencePriority;
  if (cost === undefined && speed === undefined && intelligence === undefined) return 'strong';
  return (intelligence ?? 0) > Math.max(cost ?? 0, speed ?? 0) ? 'strong' : 'cheap';
}

export interface TieredModels {
  cheap: { id: string; model: CompletionModel };
  strong: { id: string; model: CompletionModel };
}

/** Which of the two models serves a request with these preferences. */
export function chooseModel(preferences: Preferences, tiers: TieredModels): CompletionModel {
  for (const hint of preferences?.hints ?? []) {
    const wanted = hint.name;
    if (wanted === undefined || wanted === '') continue;
    if (tiers.cheap.id.includes(wanted)) return tiers.cheap.model;
    if (tiers.strong.id.includes(wanted)) return tiers.strong.model;
  }
  return tiers[preferredTier(preferences)].model;
}

/** One `CompletionModel` over two: each request goes to the model its preferences choose; it uses tools when both do. */
export function createTieredModel(name: string, tiers: TieredModels): CompletionModel {
  return {
    name,
    usesTools: tiers.cheap.model.usesTools === true && tiers.strong.model.usesTools === true,
    complete: (request) => chooseModel(request.params.modelPreferences, tiers).complete(request),
    requestBytes: async (params) => {
      const chosen = chooseModel(params.modelPreferences, tiers);
      if (chosen.requestBytes === undefined) throw new Error(`${name} cannot measure a request`);
      return chosen.requestBytes(params);
    },
  };
}
