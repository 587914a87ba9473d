/**
 * A model tool on the official SDK's own `McpServer`, so that an author keeps the server they have: the handler runs
 * the tool on the kit — on 2026-07-28 it answers `input_required` with the kit's sealed state (bound, single use,
 * the journal inside); on a 2025-11-25 session the SDK's legacy path sends the round's request live and re-enters
 * the handler; server-owned sources answer inline. (McpServer turns thrown errors into `isError` results: a
 * missing capability reaches such a client as a tool error, not -32021.)
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';

import type { ToolContext } from '../flows/tool.js';
import { runModelTool, type ModelKit, type ModelTool } from '../kit/index.js';
import { toolContextOf } from '../server/createServer.js';
import { ANONYMOUS, principalFromAuthInfo } from '../server/principals.js';

/** Live samples a 2025-11-25 call may send through the SDK's legacy path (its own round cap also holds). */
const LEGACY_MAX_SAMPLES = 6;

export function registerModelTool(mcpServer: McpServer, tool: ModelTool, kit: ModelKit): RegisteredTool {
  return mcpServer.registerTool(
    tool.name,
    {
      ...(tool.title !== undefined && { title: tool.title }),
      description: tool.description,
      inputSchema: tool.input,
      ...(tool.output !== undefined && { outputSchema: tool.output }),
      ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    },
    async (args, ctx) => {
      const principal = principalFromAuthInfo(ctx.http?.authInfo, ANONYMOUS);
      const view = toolContextOf(ctx, principal);
      return runModelTool(tool, kit, args, { ...view, ...legacyView(mcpServer, ctx, view) });
    },
  );
}

/** On a 2025-11-25 session (no `_meta` envelope): the capabilities declared at `initialize`. */
function legacyView(
  mcpServer: McpServer,
  ctx: { mcpReq: { envelope?: unknown } },
  view: ToolContext,
): Partial<ToolContext> {
  const declared = mcpServer.server.getClientCapabilities();
  if (ctx.mcpReq.envelope !== undefined || declared === undefined) return {};
  const name = mcpServer.server.getClientVersion()?.name;
  return {
    clientCapabilities: declared,
    maxSamples: LEGACY_MAX_SAMPLES,
    ...(typeof name === 'string' && view.clientName === undefined && { clientName: name }),
    ...(declared.sampling === undefined && {
      hostUnavailable: 'the client did not declare the sampling capability at initialize',
      samplingUndeclared: true,
    }),
  };
}
