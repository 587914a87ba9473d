/**
 * The main job: `summarize_repo` on a local tree, from this process. When every step of the model plan is
 * served by a server-owned model (the default, `builtin`, or a provider) and no trace is asked for, the tool
 * runs directly — the same tool, arguments schema, flow and result as a `tools/call` would get, without a
 * protocol round trip that would carry nothing but the arguments one way and the result back (direct
 * integration, in one process). When the host's model serves a step (`--model host`, `host,builtin`…) or a
 * trace of the exchange is asked for, it goes through the official client and the server's stdio front
 * (summarizeOverMcp.ts, loaded only then), because those are what the run is about.
 */
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
} from '@modelcontextprotocol/server';

import { EXPLORE_KEY, PICK_KEY, SUMMARY_KEY } from '../flows/summarizeRepo/schema.js';
import { invalidArgumentsMessage, type ToolContext } from '../flows/tool.js';
import { parseModelSpec, planReach } from '../models/sources.js';
import { localPrincipal } from '../server/principals.js';
import type { LocalSummarizeOptions } from './localSummarizeOptions.js';
import { createSummarizeRepoTool } from './summarizeRepoTool.js';

export type { LocalSummarizeOptions };

/** The client name a directly run call reports to the flow, as the in-process client's `clientInfo` would. */
const CLIENT_NAME = 'mcp-model-input-summarize';

/** Whether the run needs the protocol: a step for the host's model, a trace of the exchange, or the caller's ask. */
export function needsProtocol(options: Pick<LocalSummarizeOptions, 'models' | 'trace' | 'overMcp'>): boolean {
  if (options.overMcp === true || options.trace !== undefined) return true;
  return planReach(options.models ?? parseModelSpec('builtin'), [PICK_KEY, SUMMARY_KEY, EXPLORE_KEY]).usesHost;
}

/** What a `tools/call` from the local user tells a tool: who, which client, and nothing to resume. */
function localToolContext(signal: AbortSignal): ToolContext {
  return {
    principal: localPrincipal(),
    clientName: CLIENT_NAME,
    clientCapabilities: {},
    requestState: undefined,
    inputResponses: undefined,
    signal,
    progress: async () => {},
    log: async () => {},
  };
}

/** The tool run directly with a server-owned model plan: one call, a complete result. */
async function summarizeDirectly(options: LocalSummarizeOptions): Promise<CallToolResult> {
  const tool = createSummarizeRepoTool({
    root: options.root,
    models: options.models ?? parseModelSpec('builtin'),
    logger: options.logger,
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.budgets !== undefined && { budgets: options.budgets }),
    ...(options.fileTokens === false && { fileTokens: false }),
  });
  // Refused as the server's tools/call handler refuses them (the same -32602 message).
  const parsed = tool.inputSchema.safeParse(options.args);
  if (!parsed.success) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidArgumentsMessage(tool.name, parsed.error));
  }
  const result = await tool.run(parsed.data, localToolContext(new AbortController().signal));
  if (isInputRequiredResult(result)) {
    throw new Error('summarize_repo asked for input although every step has a server-owned model');
  }
  // What the client would check against the published output schema.
  if (result.isError !== true && tool.outputSchema !== undefined) tool.outputSchema.parse(result.structuredContent);
  return result;
}

export async function runLocalSummarize(options: LocalSummarizeOptions): Promise<CallToolResult> {
  if (!needsProtocol(options)) return summarizeDirectly(options);
  const { summarizeOverMcp } = await import('./summarizeOverMcp.js');
  return summarizeOverMcp(options);
}
