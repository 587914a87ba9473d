/**
 * The main job over the protocol: run the server in-process, connect the official SDK client pinned to
 * 2026-07-28 to the server's own stdio front over an in-memory pipe (no socket, no process, no HTTP
 * stack: inProcessPipe.ts), and return the result. `runLocalSummarize` (localSummarize.ts) comes here when
 * the host's model serves a step (the client answers the embedded `sampling/createMessage` requests with its
 * own model, the built-in one unless given) or a trace of the exchange is asked for. Every byte goes through
 * the same line gate, envelope gate, state codec and MRTR rounds as a `serve --stdio` client's would.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';

import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import { parseModelSpec } from '../models/sources.js';
import { createInProcessPipe, StreamClientTransport } from './inProcessPipe.js';
import { createModelInputServer, serveModelInputStdio } from './modelInputServer.js';
import { localPrincipal } from '../server/principals.js';
import { createEphemeralKeyRing } from '../state/index.js';
import { createHostClient } from '../host/client.js';
import { clientTransport } from '../host/target.js';
import type { LocalSummarizeOptions } from './localSummarizeOptions.js';

/** What the in-process server is called in remembered approvals and rate limits (none apply to the main job). */
const IN_PROCESS_KEY = 'in-process';

export async function summarizeOverMcp(options: LocalSummarizeOptions): Promise<CallToolResult> {
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
