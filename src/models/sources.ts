/**
 * Where model input comes from, decided per request and per input key:
 * - `host`: the client's model, over an MRTR `input_required` round (needs `sampling`);
 * - a server-owned model (today `builtin`), called inline: no round trip, no state.
 *
 * Spec grammar for `--model`: a preference list (`host,builtin`: the host when the request
 * declares sampling, otherwise the next source) or per-step assignments
 * (`pick=builtin,summary=host`).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';

import { ModelInputError } from '../errors.js';
import { createBuiltinModel } from './builtin.js';
import type { CompletionModel } from './modelSource.js';

export type ModelSource = { kind: 'host' } | { kind: 'server'; model: CompletionModel };

export interface ModelPlan {
  /** The spec as configured, for logs and `--help`. */
  readonly spec: string;
  /** The source for one input key under one request's capabilities; undefined if none can serve it. */
  sourceFor(key: string, capabilities: ClientCapabilities): ModelSource | undefined;
  /** True when some configuration of capabilities would route this key to the host. */
  mayUseHost(key: string): boolean;
}

const STEP_ALIASES: Readonly<Record<string, string>> = {
  pick: 'pick_files',
  pick_files: 'pick_files',
  summary: 'summary',
};
export const KNOWN_SOURCES = ['host', 'builtin'] as const;

function parseSource(name: string): ModelSource {
  if (name === 'host') return { kind: 'host' };
  if (name === 'builtin') return { kind: 'server', model: createBuiltinModel() };
  throw new ModelInputError(
    'config_invalid',
    `unknown model source '${name}' (available: ${KNOWN_SOURCES.join(', ')})`,
  );
}

function firstServing(list: readonly ModelSource[], capabilities: ClientCapabilities): ModelSource | undefined {
  return list.find((source) => source.kind !== 'host' || capabilities.sampling !== undefined);
}

/** Parses a `--model` spec. Throws `ModelInputError('config_invalid')` with a one-line message. */
export function parseModelSpec(spec: string): ModelPlan {
  const items = spec
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) throw new ModelInputError('config_invalid', 'empty --model spec');

  if (items.some((item) => item.includes('='))) {
    const perStep = new Map<string, ModelSource>();
    for (const item of items) {
      const [rawStep, rawSource, ...rest] = item.split('=');
      const step = STEP_ALIASES[rawStep ?? ''];
      if (step === undefined || rawSource === undefined || rest.length > 0) {
        throw new ModelInputError(
          'config_invalid',
          `bad --model entry '${item}': expected STEP=SOURCE with STEP one of pick, summary`,
        );
      }
      perStep.set(step, parseSource(rawSource));
    }
    const missing = Object.values(STEP_ALIASES).filter((step) => !perStep.has(step));
    if (missing.length > 0) {
      throw new ModelInputError('config_invalid', `--model assigns no source to: ${[...new Set(missing)].join(', ')}`);
    }
    return {
      spec,
      sourceFor: (key, capabilities) => {
        const source = perStep.get(key);
        return source === undefined ? undefined : firstServing([source], capabilities);
      },
      mayUseHost: (key) => perStep.get(key)?.kind === 'host',
    };
  }

  const list = items.map(parseSource);
  return {
    spec,
    sourceFor: (_key, capabilities) => firstServing(list, capabilities),
    mayUseHost: () => list.some((source) => source.kind === 'host'),
  };
}
