/**
 * The product's server: `summarize_repo` on the project's flow engine, with its model plan,
 * sealed request state and identity. One factory serves both fronts.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';

import { createSummarizeRepoTool } from '../flows/summarizeRepo/tool.js';
import type { SealedFlow } from '../flows/engine.js';
import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import { createDeprecationNotice } from '../legacy/deprecation.js';
import type { Logger } from '../logger.js';
import type { ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import { createStateCodec, type KeyRing } from '../state/index.js';
import { VERSION } from '../version.js';
import { createServerFactory, SERVER_NAME } from './createServer.js';
import { principalFromAuthInfo } from './principals.js';

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
  /** Legacy (2025-11-25) clients: live sampling requests per tool call (default 5). */
  maxSamplesPerCall?: number;
}

export function createModelInputServerFactory(options: ModelInputServerOptions): McpServerFactory {
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
  });
  return createServerFactory({
    identity: { name: SERVER_NAME, version: VERSION },
    tools: [summarizeRepo],
    resolvePrincipal: (authInfo) => principalFromAuthInfo(authInfo, options.defaultPrincipal),
    logger: options.logger,
    legacy: {
      onSamplingNegotiated: createDeprecationNotice(options.logger),
      ...(options.maxSamplesPerCall !== undefined && { maxSamplesPerCall: options.maxSamplesPerCall }),
    },
  });
}
