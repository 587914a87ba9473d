/**
 * A model tool on the official SDK's own `McpServer`, so that an author keeps the server they have: the handler runs
 * the tool on the kit — on 2026-07-28 it answers `input_required` with the kit's sealed state (bound, single use,
 * the journal inside); on a 2025-11-25 session the SDK's legacy path sends the round's request live and re-enters
 * the handler; server-owned sources answer inline. A protocol error of the kit's rounds (a tampered, replayed or
 * expired `requestState`, -32021 for a capability the request did not declare, the round cap) reaches the client as
 * the JSON-RPC error the spec asks for, not as the `isError` result McpServer makes of every thrown error.
 */
import { ProtocolError, type McpServer, type RegisteredTool, type ServerContext } from '@modelcontextprotocol/server';

import type { ToolContext } from '../flows/tool.js';
import { runModelTool, type ModelKit, type ModelTool } from '../kit/index.js';
import { toolContextOf } from '../server/createServer.js';
import { ANONYMOUS, principalFromAuthInfo } from '../server/principals.js';

/** Live samples a 2025-11-25 call may send through the SDK's legacy path (its own round cap also holds). */
const LEGACY_MAX_SAMPLES = 6;

export function registerModelTool(mcpServer: McpServer, tool: ModelTool, kit: ModelKit): RegisteredTool {
  const registered = mcpServer.registerTool(
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
      try {
        return await runModelTool(tool, kit, args, { ...view, ...legacyView(mcpServer, ctx, view) });
      } catch (error) {
        if (error instanceof ProtocolError) protocolErrors.set(ctx, error);
        throw error;
      }
    },
  );
  passProtocolErrors(mcpServer);
  return registered;
}

/** The protocol error a kit tool's handler threw, by the request's context, for the wrapper below to raise. */
const protocolErrors = new WeakMap<object, ProtocolError>();
const wrapped = new WeakSet<object>();

type StoredHandler = (request: unknown, ctx: ServerContext) => Promise<Record<string, unknown>>;

/**
 * Below McpServer on purpose: its tools/call funnel turns every thrown error into an `isError` result, and MRTR needs a
 * rejected state and a missing capability to reach the wire as JSON-RPC errors. The funnel is kept (other tools of
 * the author's server are untouched); a kit tool's protocol error is raised again once the funnel returns.
 */
function passProtocolErrors(mcpServer: McpServer): void {
  const low = mcpServer.server;
  if (wrapped.has(low)) return;
  const funnel = (
    low as unknown as { _getRequestHandler(method: string): StoredHandler | undefined }
  )._getRequestHandler('tools/call');
  if (funnel === undefined) return;
  wrapped.add(low);
  low.removeRequestHandler('tools/call');
  low.setRequestHandler('tools/call', async (request, ctx) => {
    const result = await funnel(request, ctx);
    const error = protocolErrors.get(ctx);
    if (error !== undefined) {
      protocolErrors.delete(ctx);
      throw error;
    }
    return result as never;
  });
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
