/**
 * Where model input comes from, decided per request and per input key:
 * - `builtin`: the tool's own deterministic heuristic (no keys, no network) — the default; each flow
 *   brings its heuristic (`FlowDefinition.builtin`), so this module names it without knowing it;
 * - `openai:MODEL` / `anthropic:MODEL` (or `PROVIDER:CHEAP+STRONG`): a server-owned provider;
 * - `host`: the client's model, over an MRTR `input_required` round (needs `sampling`).
 * Server-owned sources are called inline: no round trip, no state.
 *
 * Spec grammar for `--model`: one source, a preference list (`host,openai:gpt-5.4-mini`: the host
 * when the request declares sampling, otherwise the next source; `openai:M,builtin`: the built-in model
 * when the provider fails, for tools on the kit), or per-step assignments, each a preference list:
 * `TOOL.STEP=LIST` sets one step of one tool (`explain_file.explain=host,openai:gpt-4o-mini`), and
 * summarize_repo's `pick=`/`summary=` keep their meaning. A list before the first assignment is the
 * default of every other step (`host,builtin,explain_file.explain=openai:M`). Every configuration error —
 * unknown source, missing key, unreachable entries — is thrown here, at start-up.
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
  /**
   * The preference list of one step of one tool, whatever the request declares (the kit walks it down:
   * a host without sampling, a step without a built-in model, a provider that fails). Absent on plans
   * made by hand: the kit then uses `sourceFor(step, …)`.
   */
  preferences?(tool: string, step: string): readonly ModelSource[];
  /** The steps a per-step spec assigns (`pick_files`, `summary`, `explain_file.explain`), for checks at assembly. */
  readonly assigned?: readonly string[];
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
/** The tool whose steps `pick=` and `summary=` name (the first tool of the project). */
const SUMMARIZE_TOOL = 'summarize_repo';
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

  if (items.some((item) => item.includes('='))) return parseAssignments(spec, items, budget, parseSource);

  const list = parseList(items, parseSource);
  return {
    spec,
    budget,
    sourceFor: (_key, capabilities) => firstServing(list, capabilities),
    preferences: () => list,
  };
}

/**
 * One preference list. After `builtin` nothing is ever used (it always answers); after a provider only
 * server-side sources are (they answer when it fails), never `host`.
 */
function parseList(items: readonly string[], parseSource: (name: string) => ModelSource): ModelSource[] {
  const list = items.map(parseSource);
  for (let index = 1; index < list.length; index++) {
    const before = list[index - 1]!;
    const unused =
      before.kind === 'builtin' || (before.kind === 'server' && list.slice(index).some((s) => s.kind === 'host'));
    if (unused) {
      const after =
        before.kind === 'builtin' ? items[index] : items[list.findIndex((s, i) => i >= index && s.kind === 'host')];
      throw configError(
        `--model '${after}' after '${items[index - 1]}' is never used: a server-owned source answers every request`,
      );
    }
  }
  return list;
}

/** Where a per-step entry's name points: one step of summarize_repo (`pick`, `summary`), or `TOOL.STEP`. */
function stepOf(raw: string, item: string): string {
  const name = raw.trim();
  const alias = STEP_ALIASES[name];
  if (alias !== undefined) return alias;
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(name)) return name;
  throw configError(
    `bad --model entry '${item}': expected STEP=SOURCE with STEP one of pick, summary, or TOOL.STEP (explain_file.explain)`,
  );
}

/** `pick=…,summary=…`, `TOOL.STEP=LIST`, with an optional default list before the first assignment. */
function parseAssignments(
  spec: string,
  items: readonly string[],
  budget: ModelBudget,
  parseSource: (name: string) => ModelSource,
): ModelPlan {
  const lists = new Map<string, string[]>();
  const defaults: string[] = [];
  let current: string[] = defaults;
  for (const item of items) {
    if (!item.includes('=')) {
      current.push(item);
      continue;
    }
    const [rawStep, rawSource, ...rest] = item.split('=');
    if (rawSource === undefined || rawSource.trim() === '' || rest.length > 0) {
      throw configError(`bad --model entry '${item}': expected STEP=SOURCE with STEP one of pick, summary`);
    }
    const step = stepOf(rawStep ?? '', item);
    if (lists.has(step)) throw configError(`--model assigns ${step} twice`);
    current = [rawSource.trim()];
    lists.set(step, current);
  }
  const perStep = new Map([...lists].map(([step, names]) => [step, parseList(names, parseSource)]));
  const fallback = defaults.length > 0 ? parseList(defaults, parseSource) : undefined;
  const summarizeSteps = [...new Set(Object.values(STEP_ALIASES))];
  if (fallback === undefined && summarizeSteps.some((step) => perStep.has(step))) {
    const missing = summarizeSteps.filter((step) => !perStep.has(step));
    if (missing.length > 0) throw configError(`--model assigns no source to: ${missing.join(', ')}`);
  }
  /** summarize_repo's keys are its steps' (explore mode's one step runs on the summary's source). */
  const forKey = (key: string): readonly ModelSource[] | undefined =>
    perStep.get(key) ??
    perStep.get(`${SUMMARIZE_TOOL}.${key}`) ??
    (key === EXPLORE_STEP ? (perStep.get('summary') ?? perStep.get(`${SUMMARIZE_TOOL}.summary`)) : undefined) ??
    fallback;
  return {
    spec,
    budget,
    assigned: [...perStep.keys()],
    sourceFor: (key, capabilities) => {
      const list = forKey(key);
      return list === undefined ? undefined : firstServing(list, capabilities);
    },
    preferences: (tool, step) =>
      perStep.get(`${tool}.${step}`) ??
      (tool === SUMMARIZE_TOOL ? forKey(STEP_ALIASES[step] ?? step) : undefined) ??
      fallback ??
      [],
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
