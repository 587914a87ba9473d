/**
 * The product's server, assembled: the served tools — shipped ones by name, and authors' model tools — on one
 * shared kit (model plan, sealed request state and its keys, store, round cap, redactor, served root) — with
 * admission, the legacy era plugged in (unless turned off), and the two fronts built around it. `serve`, the library and the in-process main job all start here.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import { EXPLORE_KEY, PICK_KEY, SUMMARY_KEY } from '../flows/summarizeRepo/schema.js';
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
import type { KeyRing } from '../state/index.js';
import { createMemoryStore, type SharedStore } from '../state/stores/index.js';
import { createHttpFront, type HttpFront, type HttpFrontOptions } from '../transports/http.js';
import type { TaskListenSource } from '../transports/taskListen.js';
import { serveStdioFront, type StdioFrontOptions } from '../transports/stdio.js';
import { VERSION } from '../version.js';
import type { ExploreBounds } from '../flows/summarizeRepo/explore/bounds.js';
import type { AnyToolDefinition } from '../flows/tool.js';
import { ModelInputError } from '../errors.js';
import { createModelKit, type ModelKit } from '../kit/kit.js';
import { isModelTool, type ModelTool } from '../kit/modelTool.js';
import { modelToolDefinition } from '../kit/serveModelTool.js';
import { askRepo } from '../tools/askRepo/tool.js';
import { reviewChanges } from '../tools/reviewChanges/tool.js';
import { createSummarizeRepoTool } from './summarizeRepoTool.js';

/** The shipped tools written with the public kit (summarize_repo runs its flows on the same kit). */
const SHIPPED_MODEL_TOOLS: Readonly<Record<string, ModelTool>> = { ask_repo: askRepo, review_changes: reviewChanges };

/** The tools this package ships, served by name (`--tools`), all of them by default. */
export const SHIPPED_TOOLS = ['summarize_repo', 'ask_repo', 'review_changes'] as const;
export type ShippedToolName = (typeof SHIPPED_TOOLS)[number];

/** A served tool: a shipped one by name, a model tool (served on the server's kit), or a low-level definition. */
export type ServedTool = ShippedToolName | ModelTool | AnyToolDefinition;

/** The legacy (2025-11-25) adapter's bounds: live samples per call, HTTP sessions. */
export type LegacyOptions = LegacyServerOptions & LegacyHttpOptions;

export interface ModelInputServerOptions {
  /** The only tree the tools may read. */
  root: string;
  /** The tools served (default: every shipped tool, {@link SHIPPED_TOOLS}). Names must be unique. */
  tools?: readonly ServedTool[];
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
  /** `summarize_repo` explore-mode bounds: tool calls, rounds, bytes of results, wall time (docs/summarize-repo.md). */
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
  /** What the model tools share. */
  readonly kit: ModelKit;
  /** The served tools' names, sorted. */
  readonly tools: readonly string[];
  /** Task listeners for the HTTP front (`notifications/tasks`), when tasks are served. */
  readonly taskListen?: TaskListenSource;
}

export function createModelInputServer(options: ModelInputServerOptions): ModelInputServer {
  const era = options.legacy === false ? undefined : createLegacyEra({ logger: options.logger, ...options.legacy });
  const kit = createModelKit({
    models: options.models,
    keyRing: options.keyRing,
    store: options.store ?? createMemoryStore(),
    logger: options.logger,
    root: options.root,
    ...(options.stateTtlSeconds !== undefined && { stateTtlSeconds: options.stateTtlSeconds }),
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.metrics !== undefined && { events: options.metrics }),
  });
  const served = options.tools ?? SHIPPED_TOOLS;
  const tools = served.map((tool) => {
    if (typeof tool === 'string') return shippedTool(tool, options, kit);
    return isModelTool(tool) ? modelToolDefinition(tool, kit) : tool;
  });
  checkToolNames(tools, options.models);
  const modelTools = served.flatMap((tool): ModelTool[] => {
    if (typeof tool === 'string') return SHIPPED_MODEL_TOOLS[tool] === undefined ? [] : [SHIPPED_MODEL_TOOLS[tool]];
    return isModelTool(tool) ? [tool] : [];
  });
  const admission = createAdmission({
    maxConcurrent: defaultMaxConcurrentCalls(usesProviders(options.models, served, modelTools)),
    ...options.admission,
  });
  const factory = createServerFactory({
    identity: { name: SERVER_NAME, version: VERSION },
    tools,
    resolvePrincipal: (authInfo) => principalFromAuthInfo(authInfo, options.defaultPrincipal),
    logger: options.logger,
    admission,
    ...(era !== undefined && { era: era.server }),
    ...(options.tasks !== undefined && { tasks: options.tasks }),
    ...(options.limits !== undefined && { limits: options.limits, admitCalls: options.admitCalls === true }),
    ...(options.modelPreferences !== undefined && { modelPreferences: options.modelPreferences }),
  });
  const taskListen: TaskListenSource | undefined = options.tasks && {
    watchers: options.tasks.watchers,
    principal: (authInfo) => principalFromAuthInfo(authInfo, options.defaultPrincipal),
    serverInfo: { name: SERVER_NAME, version: VERSION },
  };
  return {
    factory,
    era,
    admission,
    kit,
    tools: tools.map((tool) => tool.name).sort(),
    ...(taskListen !== undefined && { taskListen }),
  };
}

function shippedTool(name: string, options: ModelInputServerOptions, kit: ModelKit): AnyToolDefinition {
  const modelTool = SHIPPED_MODEL_TOOLS[name];
  if (modelTool !== undefined) return modelToolDefinition(modelTool, kit);
  if (name !== 'summarize_repo') {
    throw new ModelInputError(
      'config_invalid',
      `unknown shipped tool '${name}' (shipped: ${SHIPPED_TOOLS.join(', ')})`,
    );
  }
  return createSummarizeRepoTool({
    kit,
    root: options.root,
    models: options.models,
    logger: options.logger,
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.budgets !== undefined && { budgets: options.budgets }),
    ...(options.explore !== undefined && { explore: options.explore }),
    ...(options.surveyCache === false && { surveyCache: false }),
    ...(options.metrics !== undefined && { events: options.metrics }),
  });
}

/** Unique names, and every `TOOL.STEP` of the model plan naming a served tool (and a step of a model tool). */
function checkToolNames(tools: readonly AnyToolDefinition[], models: ModelPlan): void {
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new ModelInputError('config_invalid', `two served tools are named '${tool.name}'`);
    names.add(tool.name);
  }
  for (const assigned of models.assigned ?? []) {
    const [tool] = assigned.split('.');
    if (assigned.includes('.') && !names.has(tool ?? '')) {
      throw new ModelInputError(
        'config_invalid',
        `--model assigns ${assigned}, and no served tool is named '${tool}' (served: ${[...names].sort().join(', ')})`,
      );
    }
  }
}

/** Whether some step may be answered by a server-owned provider (admission's default concurrency). */
function usesProviders(models: ModelPlan, served: readonly ServedTool[], modelTools: readonly ModelTool[]): boolean {
  const summarize =
    served.includes('summarize_repo') && planReach(models, [PICK_KEY, SUMMARY_KEY, EXPLORE_KEY]).usesProviders;
  return (
    summarize ||
    modelTools.some((tool) =>
      Object.keys(tool.steps).some((step) =>
        (models.preferences?.(tool.name, step) ?? []).some((source) => source.kind === 'server'),
      ),
    )
  );
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
    ...(server.taskListen !== undefined && { taskListen: server.taskListen }),
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
