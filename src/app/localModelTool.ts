/**
 * `ask` and `review` on a local tree, from this process: the shipped model tool run directly on a kit whose model
 * plan is the CLI's `--model` (default `builtin`) — the same tool, arguments schema and result as a `tools/call`
 * would get. There is no client here, so no host model: a plan's `host` is passed over for the next source.
 */
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
} from '@modelcontextprotocol/server';

import { invalidArgumentsMessage, type ToolContext } from '../flows/tool.js';
import { createModelKit, runModelTool, type ModelTool } from '../kit/index.js';
import type { Logger } from '../logger.js';
import type { ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';
import { localPrincipal } from '../server/principals.js';
import { askRepo } from '../tools/askRepo/tool.js';
import { reviewChanges } from '../tools/reviewChanges/tool.js';

const TOOLS = { ask_repo: askRepo, review_changes: reviewChanges } as const satisfies Record<string, ModelTool>;

export interface LocalModelToolOptions {
  tool: keyof typeof TOOLS;
  root: string;
  args: Record<string, unknown>;
  logger: Logger;
  /** Default `builtin`. */
  models?: ModelPlan;
  repository?: RepositoryOptions;
}

function localToolContext(tool: string, signal: AbortSignal): ToolContext {
  return {
    principal: localPrincipal(),
    clientName: `mcp-model-input-${tool}`,
    clientCapabilities: {},
    requestState: undefined,
    inputResponses: undefined,
    signal,
    progress: async () => {},
    log: async () => {},
  };
}

export async function runLocalModelTool(options: LocalModelToolOptions): Promise<CallToolResult> {
  const tool = TOOLS[options.tool];
  const kit = createModelKit({
    models: options.models ?? 'builtin',
    logger: options.logger,
    root: options.root,
    ...(options.repository !== undefined && { repository: options.repository }),
  });
  const parsed = tool.input.safeParse(options.args);
  if (!parsed.success) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidArgumentsMessage(tool.name, parsed.error));
  }
  const result = await runModelTool(tool, kit, parsed.data, localToolContext(tool.name, new AbortController().signal));
  if (isInputRequiredResult(result)) throw new Error(`${tool.name} asked for input although no client is connected`);
  return result;
}
