/**
 * A model kit: what every model tool of one server shares — the model plan, the request-state codec and its key
 * ring, the store (single-use state, spilled journal entries), the served root, the round cap and the logger. One
 * kit serves many tools; `createModelInputServer` makes one, and an author who keeps the official SDK's
 * `McpServer` makes one with `createModelKit` for `registerModelTool`.
 */
import { ModelInputError } from '../errors.js';
import type { SealedRound } from '../flows/inputRounds.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ModelCallRecord } from '../models/usage.js';
import { parseModelSpec, type ModelPlan, type ModelSpecOptions } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import { createEphemeralKeyRing, createStateCodec, type KeyRing, type StateCodec } from '../state/index.js';
import { createMemoryStore, openStore, type SharedStore } from '../state/stores/index.js';
import type { RoundEvents } from '../flows/inputRounds.js';
import { DEFAULT_INLINE_JOURNAL_BYTES } from './journal.js';
import type { SampleRoute } from './modelTool.js';

/** How one question was routed: the route taken (or none) and why each source before it did not answer. */
export interface RouteRecord {
  tool: string;
  step: string;
  /** Undefined when no source answered. */
  route?: SampleRoute;
  /** The source that answered (`host`, `builtin`, `openai:…`). */
  source?: string;
  /** Why the plan's earlier sources did not answer, in order. */
  passed: string[];
}

/** What the kit reports (metrics, the test kit): round events, model calls, routes. */
export interface KitEvents extends RoundEvents {
  serverModelCall?(call: ModelCallRecord): void;
  hostModelAnswer?(key: string): void;
  /** A question was routed (once per question and call, when it is first answered or asked). */
  routed?(record: RouteRecord): void;
}

export interface ModelKit {
  readonly models: ModelPlan;
  readonly keyRing: KeyRing;
  readonly codec: StateCodec<SealedRound<unknown>>;
  readonly store: SharedStore;
  readonly logger: Logger;
  /** The served root (`ctx.repo`); none: tools get no reader. */
  readonly root?: string;
  readonly repository?: RepositoryOptions;
  readonly maxRounds?: number;
  /** Journal bytes carried inline in `requestState`; larger journals spill to the store (journal.ts). */
  readonly inlineJournalBytes: number;
  readonly events?: KitEvents;
}

export interface ModelKitOptions {
  /** A `--model` spec or a plan; default `builtin`. */
  models?: string | ModelPlan;
  /** Options of a spec given as a string (environment, timeouts, budget). */
  modelSpec?: ModelSpecOptions;
  /** Default: an ephemeral ring (state does not outlive the process, nor cross instances). */
  keyRing?: KeyRing;
  stateTtlSeconds?: number;
  /** A store or its URL (`memory:`, `redis://…`); default in this process. */
  store?: SharedStore | string;
  logger?: Logger;
  root?: string;
  repository?: RepositoryOptions;
  maxRounds?: number;
  inlineJournalBytes?: number;
  events?: KitEvents;
}

export function createModelKit(options: ModelKitOptions = {}): ModelKit {
  const logger = options.logger ?? silentLogger;
  const keyRing = options.keyRing ?? createEphemeralKeyRing();
  const models =
    typeof options.models === 'object'
      ? options.models
      : parseModelSpec(options.models ?? 'builtin', { logger, ...options.modelSpec });
  const store =
    typeof options.store === 'string' ? openStore(options.store, logger) : (options.store ?? createMemoryStore());
  const inlineJournalBytes = options.inlineJournalBytes ?? DEFAULT_INLINE_JOURNAL_BYTES;
  if (!Number.isSafeInteger(inlineJournalBytes) || inlineJournalBytes < 0) {
    throw new ModelInputError('config_invalid', 'inlineJournalBytes must be a non-negative integer');
  }
  return Object.freeze({
    models,
    keyRing,
    codec: createStateCodec<SealedRound<unknown>>({
      keyRing,
      ...(options.stateTtlSeconds !== undefined && { ttlSeconds: options.stateTtlSeconds }),
    }),
    store,
    logger,
    inlineJournalBytes,
    ...(options.root !== undefined && { root: options.root }),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.events !== undefined && { events: options.events }),
  });
}
