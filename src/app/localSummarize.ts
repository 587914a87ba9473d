/**
 * The main job: run the server in-process, connect the official SDK client pinned to
 * 2026-07-28 to the server's own stdio front over an in-memory pipe (no socket, no process, no HTTP
 * stack: inProcessPipe.ts), and return the result. With a server-owned model plan (the default,
 * `builtin`) that is one `tools/call`; with `host` in the plan the client answers the embedded
 * `sampling/createMessage` requests with its own model (the built-in one unless given). Every byte
 * goes through the same line gate, envelope gate, state codec and MRTR rounds as a `serve --stdio`
 * client's would.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';

import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import type { Logger } from '../logger.js';
import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../models/modelSource.js';
import { parseModelSpec, type ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import { createInProcessPipe, StreamClientTransport } from './inProcessPipe.js';
import { createModelInputServer, serveModelInputStdio } from './modelInputServer.js';
import { localPrincipal } from '../server/principals.js';
import { createEphemeralKeyRing } from '../state/index.js';
import { createHostClient } from '../host/client.js';
import { clientTransport } from '../host/target.js';
import type { TraceSink } from '../host/trace.js';

/** What the in-process server is called in remembered approvals and rate limits (none apply to the main job). */
const IN_PROCESS_KEY = 'in-process';

export interface LocalSummarizeOptions {
  root: string;
  args: { audience?: string; path?: string; maxFiles?: number };
  logger: Logger;
  /** The server's model plan; defaults to `builtin` (server-owned, one call). */
  models?: ModelPlan;
  /** The host's model, for steps the plan gives to `host`; defaults to the built-in heuristic. */
  model?: CompletionModel;
  trace?: TraceSink;
  /** `summarize_repo` size limits (defaults in flows/summarizeRepo/prompts.ts). */
  budgets?: Partial<SummarizeBudgets>;
  /** Repository reader options, e.g. `onProgress` for a progress line. */
  repository?: RepositoryOptions;
}

export async function runLocalSummarize(options: LocalSummarizeOptions): Promise<CallToolResult> {
  const model = options.model ?? createBuiltinModel();
  const server = createModelInputServer({
    root: options.root,
    models: options.models ?? parseModelSpec('builtin'),
    // One process serves every round here, so a per-process key is exactly right.
    keyRing: createEphemeralKeyRing(),
    logger: options.logger,
    defaultPrincipal: localPrincipal(),
    // The in-process client is pinned to 2026-07-28: no 2025-11-25 client ever reaches this server.
    legacy: false,
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.budgets !== undefined && { budgets: options.budgets }),
  });
  const pipe = createInProcessPipe();
  const front = serveModelInputStdio(server, { logger: options.logger, input: pipe.toServer, output: pipe.toClient });
  const transport = clientTransport(
    { kind: 'transport', transport: new StreamClientTransport(pipe.toClient, pipe.toServer), key: IN_PROCESS_KEY },
    options.trace === undefined ? {} : { trace: options.trace },
  );
  const client = createHostClient({ name: 'mcp-model-input-summarize', model });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'summarize_repo', arguments: options.args });
    return result as CallToolResult;
  } finally {
    await client.close().catch(() => {});
    await front.close();
  }
}
