/**
 * Decides which of the host's configured models answers a sampling request, from the server's
 * advisory `modelPreferences`: hints first, in order (the first hint whose name is a
 * case-insensitive substring of a configured model id picks the first such model); else the
 * model with the best priority-weighted score of its cost, speed and intelligence attributes;
 * on a tie, or with no preferences, the first configured model.
 */
import type { ModelPreferences } from '@modelcontextprotocol/client';

import type { CompletionModel } from '../../models/modelSource.js';

export interface HostModelEntry {
  /** The id hints are matched against (`claude-sonnet-4`, `gpt-4o-mini`, `builtin`). */
  id: string;
  model: CompletionModel;
  /** 0..1: how cheap the model is (1 = cheapest). */
  cost: number;
  /** 0..1: how fast it answers (1 = fastest). */
  speed: number;
  /** 0..1: how capable it is (1 = most capable). */
  intelligence: number;
}

export type ModelAttributes = Pick<HostModelEntry, 'cost' | 'speed' | 'intelligence'>;

const TIERS = {
  cheap: Object.freeze({ cost: 1, speed: 1, intelligence: 0.2 }),
  strong: Object.freeze({ cost: 0.2, speed: 0.4, intelligence: 1 }),
  balanced: Object.freeze({ cost: 0.5, speed: 0.5, intelligence: 0.5 }),
} satisfies Record<string, Readonly<ModelAttributes>>;

/**
 * Attributes for the CLI's `SPEC=cheap|strong|balanced` suffix. A null-prototype object, so that
 * `name in TIER_ATTRIBUTES` is true only for the tiers (never for `toString` and friends).
 */
export const TIER_ATTRIBUTES: Readonly<typeof TIERS> = Object.freeze(Object.assign(Object.create(null), TIERS));

function weight(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The first model a hint names, trying hints in order; undefined when none matches. */
function byHint(preferences: ModelPreferences, models: readonly HostModelEntry[]): HostModelEntry | undefined {
  for (const hint of preferences.hints ?? []) {
    const name = typeof hint?.name === 'string' ? hint.name.toLowerCase() : '';
    if (name === '') continue;
    const match = models.find((entry) => entry.id.toLowerCase().includes(name));
    if (match !== undefined) return match;
  }
  return undefined;
}

/** The model for `preferences` among `models` (see the file comment). Throws on an empty list. */
export function selectHostModel(
  preferences: ModelPreferences | undefined,
  models: readonly HostModelEntry[],
): HostModelEntry {
  const first = models[0];
  if (first === undefined) throw new Error('selectHostModel: no host models are configured');
  if (preferences === undefined) return first;
  const hinted = byHint(preferences, models);
  if (hinted !== undefined) return hinted;
  const cost = weight(preferences.costPriority);
  const speed = weight(preferences.speedPriority);
  const intelligence = weight(preferences.intelligencePriority);
  let best = first;
  let bestScore = -Infinity;
  for (const entry of models) {
    const score = cost * entry.cost + speed * entry.speed + intelligence * entry.intelligence;
    // Strictly greater: the earlier model keeps a tie.
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}
