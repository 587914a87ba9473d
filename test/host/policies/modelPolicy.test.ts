/** Choosing the host model from modelPreferences: hints in order, then weighted priorities, ties to the first. */
import type { ModelPreferences } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { selectHostModel, TIER_ATTRIBUTES, type HostModelEntry } from '../../../src/host/policies/modelPolicy.js';
import type { CompletionModel } from '../../../src/models/modelSource.js';

const model: CompletionModel = {
  name: 'unused',
  complete: () => Promise.reject(new Error('not called')),
};
const entry = (id: string, tier: keyof typeof TIER_ATTRIBUTES): HostModelEntry => ({
  id,
  model,
  ...TIER_ATTRIBUTES[tier],
});

// The configuration of the worked examples below (model choice: docs/host.md).
const MODELS = [
  entry('anthropic:claude-sonnet-4', 'strong'),
  entry('anthropic:claude-haiku-4', 'cheap'),
  entry('openai:gpt-4o-mini', 'cheap'),
  entry('builtin', 'balanced'),
];
const choose = (preferences: ModelPreferences | undefined, models = MODELS) => selectHostModel(preferences, models).id;

describe('selectHostModel', () => {
  it.each<[string, ModelPreferences | undefined, string]>([
    ['no preferences', undefined, 'anthropic:claude-sonnet-4'],
    ['empty preferences', {}, 'anthropic:claude-sonnet-4'],
    ['a hint, case-insensitive substring', { hints: [{ name: 'HAIKU' }] }, 'anthropic:claude-haiku-4'],
    ['hints in order: the first that matches', { hints: [{ name: 'gemini' }, { name: 'gpt' }] }, 'openai:gpt-4o-mini'],
    ['the first model a hint matches', { hints: [{ name: 'claude' }] }, 'anthropic:claude-sonnet-4'],
    ['a hint beats the priorities', { hints: [{ name: 'builtin' }], intelligencePriority: 1 }, 'builtin'],
    ['cost first', { costPriority: 0.9, intelligencePriority: 0.1 }, 'anthropic:claude-haiku-4'],
    ['intelligence first', { costPriority: 0.2, intelligencePriority: 0.8 }, 'anthropic:claude-sonnet-4'],
    [
      'intelligence outweighs cost and speed together',
      { costPriority: 0.3, speedPriority: 0.3, intelligencePriority: 0.7 },
      'anthropic:claude-sonnet-4',
    ],
    [
      'no hint matches: priorities decide',
      { hints: [{ name: 'llama' }], speedPriority: 1 },
      'anthropic:claude-haiku-4',
    ],
    ['all priorities zero: the first', { costPriority: 0, speedPriority: 0 }, 'anthropic:claude-sonnet-4'],
    ['an empty hint name matches nothing', { hints: [{ name: '' }, {}], costPriority: 1 }, 'anthropic:claude-haiku-4'],
  ])('%s', (_name, preferences, expected) => {
    expect(choose(preferences)).toBe(expected);
  });

  it('keeps the first configured model on a tie', () => {
    const tied = [entry('b-cheap', 'cheap'), entry('a-cheap', 'cheap')];
    expect(choose({ costPriority: 1 }, tied)).toBe('b-cheap');
  });

  it('scores priorities times attributes', () => {
    // balanced: 0.5·0.6 + 0.5·0.6 = 0.6; strong: 0.2·0.6 + 1·0.6 = 0.72.
    const models = [entry('balanced', 'balanced'), entry('strong', 'strong')];
    expect(choose({ costPriority: 0.6, intelligencePriority: 0.6 }, models)).toBe('strong');
  });

  it('throws on an empty model list (a configuration bug)', () => {
    expect(() => selectHostModel(undefined, [])).toThrow(/no host models/);
  });
});

describe('TIER_ATTRIBUTES', () => {
  it('has exactly the three tiers, with no inherited names', () => {
    expect(Object.keys(TIER_ATTRIBUTES).sort()).toEqual(['balanced', 'cheap', 'strong']);
    expect('toString' in TIER_ATTRIBUTES).toBe(false);
    expect(TIER_ATTRIBUTES.cheap.cost).toBeGreaterThan(TIER_ATTRIBUTES.strong.cost);
    expect(TIER_ATTRIBUTES.strong.intelligence).toBeGreaterThan(TIER_ATTRIBUTES.cheap.intelligence);
  });
});
