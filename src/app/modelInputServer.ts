/**
 * The product's server, assembled: `summarize_repo` on the project's flow engine, with its model
 * plan, sealed request state and identity, the legacy era plugged in (unless turned off), and the
 * two fronts built around it. `serve` and the in-process main job both start here.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import type { SealedFlow } from '../flows/engine.js';
import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import { EXPLORE_KEY, PICK_KEY, SUMMARY_KEY } from '../flows/summarizeRepo/schema.js';
import { createSummarizeRepoTool } from '../flows/summarizeRepo/tool.js';
import { createLegacyEra, type LegacyHttpOptions, type LegacyServerOptions } from '../legacy/index.js';
import type { Logger } from '../logger.js';
import { planReach, type ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import {
  createAdmission,
  defaultMaxConcurrentCalls,
  type Admission,
  type AdmissionOptions,
} from '../server/admission.js';
import { createServerFactory, SERVER_NAME } from '../server/createServer.js';
import type { ModelPreferencesMode } from '../server/modelPreferences.js';
import type { ProtocolEra } from '../server/era.js';
import type { ServerMetrics } from '../server/metrics.js';
import type { PrincipalLimits } from '../server/principalLimits.js';
import type { TaskService } from '../server/tasks/taskService.js';
import { principalFromAuthInfo } from '../server/principals.js';
import { createStateCodec, type KeyRing } from '../state/index.js';
import { createMemoryStore, type SharedStore } from '../state/stores/index.js';
import { createHttpFront, type HttpFront, type HttpFrontOptions } from '../transports/http.js';
import { serveStdioFront, type StdioFrontOptions } from '../transports/stdio.js';
import { VERSION } from '../version.js';
import type { ExploreBounds } from '../flows/summarizeRepo/explore/bounds.js';

/** The legacy (2025-11-25) adapter's bounds: live samples per call, HTTP sessions. */
export type LegacyOptions = LegacyServerOptions & LegacyHttpOptions;

export interface ModelInputServerOptions {
  /** The only tree the tool may read. */
  root: string;
  models: ModelPlan;
  keyRing: KeyRing;
  logger: Logger;
  /** Principal for requests without auth info (stdio: the OS user; HTTP without tokens: anonymous). */
  defaultPrincipal: string;
  stateTtlSeconds?: number;
  maxRounds?: number;
  /** Repository reader options (listing mode, git timeout, progress callback…). */
  repository?: RepositoryOptions;
  /** `summarize_repo` size limits: pick prompt bytes, summary read budgets, final text tokens. */
  budgets?: Partial<SummarizeBudgets>;
  /** `summarize_repo` explore-mode bounds: tool calls, rounds, bytes of results, wall time (docs/explore-mode.md). */
  explore?: Partial<ExploreBounds>;
  /** Serving of 2025-11-25 clients (default on, with its defaults); false serves 2026-07-28 only. */
  legacy?: LegacyOptions | false;
  /** Where consumed request-state ids are kept (single use): default a store in this process. */
  store?: SharedStore;
  /** Rounds, state rejections and model calls are counted here. */
  metrics?: ServerMetrics;
  /** Per-principal limits: tokens are charged; with `admitCalls` (stdio) new calls are refused with `isError`. */
  limits?: PrincipalLimits;
  admitCalls?: boolean;
  /** Tool calls running at once, per principal and waiting (defaults in server/admission.ts). */
  admission?: AdmissionOptions;
  /** The tasks extension (SEP-2663): calls that declare it run as tasks on this service (docs/tasks.md). */
  tasks?: TaskService;
  /** Surveys kept between calls: default the process's shared cache; `false` keeps none (the warm-up's server). */
  surveyCache?: false;
  /** `omit`: sampling requests to the host carry no `modelPreferences` (default `send`; server/modelPreferences.ts). */
  modelPreferences?: ModelPreferencesMode;
}

/** A server factory, and the era plug-in each front takes its part of. */
export interface ModelInputServer {
  readonly factory: McpServerFactory;
  readonly era: ProtocolEra | undefined;
  /** The tool-call admission both fronts share. */
  readonly admission: Admission;
}

export function createModelInputServer(options: ModelInputServerOptions): ModelInputServer {
  const era = options.legacy === false ? undefined : createLegacyEra({ logger: options.logger, ...options.legacy });
  const codec = createStateCodec<SealedFlow<unknown>>({
    keyRing: options.keyRing,
    ...(options.stateTtlSeconds !== undefined && { ttlSeconds: options.stateTtlSeconds }),
  });
  const summarizeRepo = createSummarizeRepoTool({
    root: options.root,
    codec,
    models: options.models,
    logger: options.logger,
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.budgets !== undefined && { budgets: options.budgets }),
    ...(options.explore !== undefined && { explore: options.explore }),
    store: options.store ?? createMemoryStore(),
    ...(options.surveyCache === false && { surveyCache: false }),
    ...(options.metrics !== undefined && { events: options.metrics }),
  });
  const reach = planReach(options.models, [PICK_KEY, SUMMARY_KEY, EXPLORE_KEY]);
  const admission = createAdmission({
    maxConcurrent: defaultMaxConcurrentCalls(reach.usesProviders),
    ...options.admission,
  });
  const factory = createServerFactory({
    identity: { name: SERVER_NAME, version: VERSION },
    tools: [summarizeRepo],
    resolvePrincipal: (authInfo) => principalFromAuthInfo(authInfo, options.defaultPrincipal),
    logger: options.logger,
    admission,
    ...(era !== undefined && { era: era.server }),
    ...(options.tasks !== undefined && { tasks: options.tasks }),
    ...(options.limits !== undefined && { limits: options.limits, admitCalls: options.admitCalls === true }),
    ...(options.modelPreferences !== undefined && { modelPreferences: options.modelPreferences }),
  });
  return { factory, era, admission };
}

/** The HTTP front around the server, with the era's sessionful leg when there is one. */
export function createModelInputHttpFront(
  server: ModelInputServer,
  options: Omit<HttpFrontOptions, 'factory' | 'sessions'>,
): HttpFront {
  return createHttpFront({
    ...options,
    factory: server.factory,
    admission: server.admission,
    ...(server.era !== undefined && { sessions: server.era.http }),
  });
}

/** The stdio front around the server, with the era's connection tracker when there is one. */
export function serveModelInputStdio(
  server: ModelInputServer,
  options: Omit<StdioFrontOptions, 'factory' | 'era'>,
): StdioServerHandle {
  return serveStdioFront({
    ...options,
    factory: server.factory,
    ...(server.era !== undefined && { era: server.era.stdio }),
  });
}
