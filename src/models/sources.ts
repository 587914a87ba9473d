/**
 * Where model input comes from, decided per request and per input key:
 * - `builtin`: the tool's own deterministic heuristic (no keys, no network) — the default; each flow
 *   brings its heuristic (`FlowDefinition.builtin`), so this module names it without knowing it;
 * - `openai:MODEL` / `anthropic:MODEL` (or `PROVIDER:CHEAP+STRONG`): a server-owned provider;
 * - `host`: the client's model, over an MRTR `input_required` round (needs `sampling`).
 * Server-owned sources are called inline: no round trip, no state.
 *
 * Spec grammar for `--model`: one source, a preference list (`host,openai:gpt-5.4-mini`: the host
 * when the request declares sampling, otherwise the next source) or per-step assignments
 * (`pick=builtin,summary=anthropic:claude-sonnet-5-5`). Every configuration error — unknown source,
 * missing key, unreachable entries — is thrown here, at start-up.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';

import { ModelInputError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { CompletionModel } from './modelSource.js';
import { createProviderSource } from './providers/providerSources.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './providers/retry.js';
import { printable } from '../protocol/sanitize.js';
import { DEFAULT_MODEL_BUDGET, type ModelBudget } from './usage.js';

/** `builtin` is the tool's own heuristic: the flow supplies the model. */
export type ModelSource = { kind: 'host' } | { kind: 'builtin' } | { kind: 'server'; model: CompletionModel };

export interface ModelPlan {
  /** The spec as configured, for logs. */
  readonly spec: string;
  /** Bounds on server-owned model use per tool call; `DEFAULT_MODEL_BUDGET` when absent. */
  readonly budget?: ModelBudget;
  /** The source for one input key under one request's capabilities; undefined if none can serve it. */
  sourceFor(key: string, capabilities: ClientCapabilities): ModelSource | undefined;
}

export interface ModelSpecOptions {
  /** Keys and base URLs are read from here; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Provider retry warnings. */
  logger?: Logger;
  /** Per provider HTTP request; default 60 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  budget?: Partial<ModelBudget>;
}

export const DEFAULT_MODEL_SPEC = 'builtin';
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

const STEP_ALIASES: Readonly<Record<string, string>> = {
  pick: 'pick_files',
  pick_files: 'pick_files',
  summary: 'summary',
};
/** The input key of summarize_repo's explore mode, served by the `summary` assignment of a per-step spec. */
const EXPLORE_STEP = 'explore';
const SOURCES_HELP = 'use builtin, host, openai:MODEL or anthropic:MODEL';

/** One line, whatever the operator typed: the message echoes parts of the spec. */
function configError(message: string): ModelInputError<'config_invalid'> {
  return new ModelInputError('config_invalid', printable(message));
}

function firstServing(list: readonly ModelSource[], capabilities: ClientCapabilities): ModelSource | undefined {
  return list.find((source) => source.kind !== 'host' || capabilities.sampling !== undefined);
}

/** Parses a `--model` spec. Throws `ModelInputError('config_invalid')` with a one-line message. */
export function parseModelSpec(spec: string, options: ModelSpecOptions = {}): ModelPlan {
  const settings = {
    env: options.env ?? process.env,
    logger: options.logger ?? silentLogger,
    timeoutMs: options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
  };
  const budget: ModelBudget = { ...DEFAULT_MODEL_BUDGET, ...options.budget };
  const made = new Map<string, ModelSource>();
  const parseSource = (name: string): ModelSource => {
    const known = made.get(name);
    if (known !== undefined) return known;
    let source: ModelSource;
    if (name === 'host') source = { kind: 'host' };
    else if (name === 'builtin') source = { kind: 'builtin' };
    else if (name.includes(':')) source = { kind: 'server', model: createProviderSource(name, settings) };
    else throw configError(`unknown model source '${name}' (${SOURCES_HELP})`);
    made.set(name, source);
    return source;
  };

  const items = spec
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) throw configError(`empty --model spec (${SOURCES_HELP})`);

  if (items.some((item) => item.includes('='))) {
    const perStep = new Map<string, ModelSource>();
    for (const item of items) {
      const [rawStep, rawSource, ...rest] = item.split('=');
      const step = STEP_ALIASES[rawStep?.trim() ?? ''];
      if (step === undefined || rawSource === undefined || rawSource.trim() === '' || rest.length > 0) {
        throw configError(`bad --model entry '${item}': expected STEP=SOURCE with STEP one of pick, summary`);
      }
      if (perStep.has(step)) throw configError(`--model assigns ${step} twice`);
      perStep.set(step, parseSource(rawSource.trim()));
    }
    const missing = [...new Set(Object.values(STEP_ALIASES))].filter((step) => !perStep.has(step));
    if (missing.length > 0) throw configError(`--model assigns no source to: ${missing.join(', ')}`);
    return {
      spec,
      budget,
      sourceFor: (key, capabilities) => {
        // Explore mode's one step writes the summary: it runs on the summary step's source.
        const source = perStep.get(key) ?? (key === EXPLORE_STEP ? perStep.get('summary') : undefined);
        return source === undefined ? undefined : firstServing([source], capabilities);
      },
    };
  }

  const list = items.map(parseSource);
  const serving = list.findIndex((source) => source.kind !== 'host');
  if (serving >= 0 && serving < list.length - 1) {
    throw configError(
      `--model '${items[serving + 1]}' after '${items[serving]}' is never used: a server-owned source answers every request`,
    );
  }
  return {
    spec,
    budget,
    sourceFor: (_key, capabilities) => firstServing(list, capabilities),
  };
}

/** What a plan can do for requests with and without sampling, over the given input keys. */
export interface PlanReach {
  /** Some key is served by the host's model when the request declares sampling (state is minted). */
  usesHost: boolean;
  /** Some key has no source unless the request declares sampling (such clients get -32021). */
  needsSampling: boolean;
  /** Some key may be served by a server-owned provider model (with or without sampling declared). */
  usesProviders: boolean;
}

export function planReach(plan: ModelPlan, keys: readonly string[]): PlanReach {
  return {
    usesHost: keys.some((key) => plan.sourceFor(key, { sampling: {} })?.kind === 'host'),
    needsSampling: keys.some((key) => plan.sourceFor(key, {}) === undefined),
    usesProviders: keys.some((key) =>
      [{ sampling: {} }, {}].some((capabilities) => plan.sourceFor(key, capabilities)?.kind === 'server'),
    ),
  };
}

/** Said at start-up and once per refused client when some step can only be served by the host's model. */
export const SAMPLING_ONLY_HINT =
  '--model host,builtin (or host,openai:MODEL / host,anthropic:MODEL) would serve them with a server-side model';
