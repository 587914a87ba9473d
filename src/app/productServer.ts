/**
 * The product's server as `serve` assembles it, for the CLI and for a program alike: the store (single-use state,
 * spilled journal entries, per-principal limits) opened and checked, the limits and metrics, the served tools on
 * one kit, and the readiness checks of `/readyz`. The CLI parses flags into these settings and builds the fronts.
 */
import type { Logger } from '../logger.js';
import type { ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import type { AdmissionOptions } from '../server/admission.js';
import type { ServerMetrics } from '../server/metrics.js';
import { createPrincipalLimits, type PrincipalLimits } from '../server/principalLimits.js';
import type { KeyRing } from '../state/index.js';
import { openStore, type SharedStore } from '../state/stores/index.js';
import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import {
  createModelInputServer,
  type LegacyOptions,
  type ModelInputServer,
  type ServedTool,
} from './modelInputServer.js';

export interface ProductServerSettings {
  root: string;
  tools: readonly ServedTool[];
  models: ModelPlan;
  keyRing: KeyRing;
  logger: Logger;
  /** `--store`: `memory:` (default) or `redis://…`. */
  store?: string;
  budgets?: Partial<SummarizeBudgets>;
  stateTtlSeconds?: number;
  maxRounds?: number;
  admission?: AdmissionOptions;
  legacy: LegacyOptions | false;
  repository?: RepositoryOptions;
  callsPerMinute?: number;
  tokensPerDay?: number;
  /** Count rounds, rejections and model calls (prom-client loads only then). */
  metrics?: boolean;
}

export interface ProductServer {
  store: SharedStore;
  limits: PrincipalLimits | undefined;
  metrics: ServerMetrics | undefined;
  /** The server for a front: stdio admits calls itself (`admitCalls`); HTTP answers 429 before the server runs. */
  create(defaultPrincipal: string, admitCalls: boolean): ModelInputServer;
  /** The checks of `/readyz`: keys loaded, store reachable. */
  readiness: Record<string, () => Promise<string>>;
}

export async function openProductServer(settings: ProductServerSettings): Promise<ProductServer> {
  const { logger, keyRing } = settings;
  const store = openStore(settings.store, logger);
  if (store.kind === 'redis') {
    if (keyRing.ephemeral)
      logger.warn('--store is shared but the state keys are not: every instance needs the same keys');
    // Bounded: an unreachable store is reported (MRTR rounds refused, /readyz 503), not fatal.
    await store
      .ping()
      .catch(() =>
        logger.warn(`store: ${store.description} unreachable at start; MRTR rounds are refused until it is back`),
      );
  }
  const limits = createPrincipalLimits({
    store,
    logger,
    ...(settings.callsPerMinute !== undefined && { callsPerMinute: settings.callsPerMinute }),
    ...(settings.tokensPerDay !== undefined && { tokensPerDay: settings.tokensPerDay }),
  });
  // prom-client (and the tracing API it loads, about 90 files) only when metrics are asked for.
  const metrics: ServerMetrics | undefined =
    settings.metrics === true ? (await import('../server/metrics.js')).createServerMetrics() : undefined;
  const common = {
    root: settings.root,
    tools: settings.tools,
    models: settings.models,
    keyRing,
    logger,
    store,
    legacy: settings.legacy,
    ...(limits !== undefined && { limits }),
    ...(metrics !== undefined && { metrics }),
    ...(settings.budgets !== undefined && { budgets: settings.budgets }),
    ...(settings.admission !== undefined && { admission: settings.admission }),
    ...(settings.stateTtlSeconds !== undefined && { stateTtlSeconds: settings.stateTtlSeconds }),
    ...(settings.maxRounds !== undefined && { maxRounds: settings.maxRounds }),
    ...(settings.repository !== undefined && { repository: settings.repository }),
  };
  return {
    store,
    limits,
    metrics,
    create: (defaultPrincipal, admitCalls) =>
      createModelInputServer({ ...common, defaultPrincipal, ...(admitCalls && { admitCalls: true }) }),
    readiness: {
      keys: () =>
        Promise.resolve(
          `${keyRing.kids.length} key(s) loaded${keyRing.ephemeral ? ' (ephemeral, this process only)' : ''}`,
        ),
      store: async () => {
        await store.ping();
        return `${store.kind} reachable`;
      },
    },
  };
}
