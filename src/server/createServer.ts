/**
 * Server assembly: one factory that builds a fresh SDK `Server` per serving unit
 * (an HTTP request, or a stdio connection) with our tools registered.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type McpServerFactory,
  type ServerCapabilities,
  type ServerContext,
  type ServerOptions,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import { invalidArgumentsMessage, type AnyToolDefinition, type ToolContext } from '../flows/tool.js';
import type { Logger } from '../logger.js';
import { isStoreUnavailableError } from '../state/stores/index.js';
import type { Admission } from './admission.js';
import type { EraRequestView, ServerEra } from './era.js';
import { withModelPreferences, type ModelPreferencesMode } from './modelPreferences.js';
import { describeInternalError, guardRequestHandlers } from './internalErrors.js';
import type { PrincipalLimits } from './principalLimits.js';
import { describeUnknownArguments, unknownArgumentsMessage } from './unknownArguments.js';
import { TASKS_EXTENSION } from './tasks/taskRecord.js';
import type { TaskExecutor, TaskService } from './tasks/taskService.js';
import { callAsTask, registerTaskHandlers } from './tasks/serveTasks.js';

export const SERVER_NAME = 'mcp-model-input';

export interface ServerIdentity {
  name: string;
  version: string;
}

export interface ServerFactoryOptions {
  identity: ServerIdentity;
  tools: readonly AnyToolDefinition[];
  /** Maps the validated auth info of a request (HTTP) to a principal; stdio passes none. */
  resolvePrincipal: (authInfo: { extra?: Record<string, unknown> } | undefined) => string;
  /** Cache lifetime advertised for `server/discover`, the list methods and `resources/read`. */
  listTtlMs?: number;
  /** Capabilities served beyond `tools` (e.g. `prompts`, `resources`) by handlers `extend` registers. */
  capabilities?: ServerCapabilities;
  /** Registers further handlers (prompts, resources, completion) on each fresh low-level server. */
  extend?: (server: Server, principal: string) => void;
  /** An era plug-in (the legacy 2025-11-25 adapter); without one, only 2026-07-28 is served. */
  era?: ServerEra;
  /**
   * Per-principal limits: tools are charged the tokens their server-owned models spend. With
   * `admitCalls`, a new call over a limit is refused here with an `isError` result — for fronts
   * without HTTP status codes (stdio); the HTTP front refuses with 429 before the server runs.
   */
  limits?: PrincipalLimits;
  admitCalls?: boolean;
  /** Where the detail of an internal error goes; the peer only ever gets -32603 `Internal error`. */
  logger?: Logger;
  /** Bounds the tool calls running and waiting (global and per principal); without it calls are not bounded. */
  admission?: Admission;
  /**
   * The tasks extension (SEP-2663): advertised in `server/discover`; a new call of a tool that allows tasks, from a
   * request that declared the extension, is answered `resultType: "task"` and run by this service.
   */
  tasks?: TaskService;
  /** Whether sampling requests to the host carry `modelPreferences` (default `send`): modelPreferences.ts. */
  modelPreferences?: ModelPreferencesMode;
}

/**
 * The per-request view every handler gets, built from the SDK's context. When an era plug-in serves
 * the request (`view`), capabilities and answers come from it instead of `_meta`.
 */
export function toolContextOf(
  ctx: ServerContext,
  principal: string,
  legacy?: EraRequestView,
  transportSignal?: AbortSignal,
): ToolContext {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
  return {
    principal,
    ...(typeof info?.name === 'string' && { clientName: info.name }),
    ...(legacy?.clientName !== undefined && { clientName: legacy.clientName }),
    clientCapabilities: legacy?.clientCapabilities ?? declared ?? {},
    requestState: ctx.mcpReq.requestState(),
    inputResponses: legacy === undefined ? ctx.mcpReq.inputResponses : legacy.inputResponses,
    ...(legacy?.hostUnavailable !== undefined && { hostUnavailable: legacy.hostUnavailable }),
    ...(legacy?.samplingUndeclared === true && { samplingUndeclared: true }),
    ...(legacy?.maxSamples !== undefined && { maxSamples: legacy.maxSamples }),
    // Aborted by notifications/cancelled (the SDK) or by the HTTP client going away (the transport).
    signal: transportSignal === undefined ? ctx.mcpReq.signal : AbortSignal.any([ctx.mcpReq.signal, transportSignal]),
    log: (level, data) => ctx.mcpReq.log(level, data),
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        },
      });
    },
  };
}

export const DEFAULT_LIST_TTL_MS = 300_000;

/** Builds the `tools/list` descriptors once; every response gets its own deep copy. */
export function describeTools(tools: readonly AnyToolDefinition[]): Tool[] {
  return [...tools]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Tool['inputSchema'],
      ...(tool.outputSchema !== undefined && {
        outputSchema: z.toJSONSchema(tool.outputSchema, { io: 'output' }) as Tool['outputSchema'],
      }),
      ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    }));
}

/**
 * Makes `tools/list` results that share nothing with the descriptors or with each other: each is parsed anew from
 * the descriptors' JSON, taken once here (plain JSON data, so the copy is exact; parsing 10 KB of it costs about
 * half of a `structuredClone`).
 */
export function toolsListResults(descriptors: readonly Tool[]): () => { tools: Tool[] } {
  const json = JSON.stringify(descriptors);
  return () => ({ tools: JSON.parse(json) as Tool[] });
}

/** A new call over a per-principal limit, as the `isError` result the model can read; else undefined. */
async function refusedByLimits(
  limits: PrincipalLimits,
  principal: string,
): Promise<{ content: [{ type: 'text'; text: string }]; isError: true } | undefined> {
  try {
    const admission = await limits.admitCall(principal);
    if (admission.admitted) return undefined;
    return { content: [{ type: 'text', text: admission.message }], isError: true };
  } catch (error) {
    if (!isStoreUnavailableError(error)) throw error;
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      'The shared store is unreachable: per-principal limits cannot be checked, so tool calls are refused until it is back',
    );
  }
}

export function createServerFactory(options: ServerFactoryOptions): McpServerFactory {
  const listTools = toolsListResults(describeTools(options.tools));
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const ttlMs = options.listTtlMs ?? DEFAULT_LIST_TTL_MS;
  options.tasks?.start(taskExecutor(byName, options.limits, options.modelPreferences ?? 'send'));

  return (requestContext) => {
    const principal = options.resolvePrincipal(requestContext.authInfo);
    const requestInfo = (requestContext as { requestInfo?: { signal?: AbortSignal } }).requestInfo;
    const transportSignal = requestInfo?.signal;
    // Below McpServer on purpose: its tools/call funnel turns every thrown error into an
    // `isError` result, and our contract needs -32021 and -32602 to reach the wire.
    const hint = { ttlMs, cacheScope: 'public' as const };
    const serverOptions: ServerOptions = {
      capabilities: {
        ...options.capabilities,
        tools: {},
        ...(options.tasks !== undefined && {
          extensions: { ...options.capabilities?.extensions, [TASKS_EXTENSION]: {} },
        }),
      },
      cacheHints: {
        'server/discover': hint,
        'tools/list': hint,
        'prompts/list': hint,
        'resources/list': hint,
        'resources/templates/list': hint,
        'resources/read': hint,
      },
    };
    const era = options.era;
    const server = era?.createServer(options.identity, serverOptions) ?? new Server(options.identity, serverOptions);
    guardRequestHandlers(server, (method, error) =>
      options.logger?.warn(`${method}: internal error: ${describeInternalError(error)}`, 'internal_error'),
    );

    server.setRequestHandler('tools/list', listTools);

    server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = byName.get(request.params.name);
      if (tool === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      }
      const parsed = tool.inputSchema.safeParse(request.params.arguments ?? {});
      if (!parsed.success) {
        const unknown = parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys' && issue.path.length === 0 ? issue.keys : [],
        );
        if (unknown.length > 0) {
          const described = describeUnknownArguments(unknown, Object.keys(tool.inputSchema.shape));
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            unknownArgumentsMessage(tool.name, described),
            described,
          );
        }
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidArgumentsMessage(tool.name, parsed.error));
      }
      const limits = options.limits;
      if (limits !== undefined && options.admitCalls === true && ctx.mcpReq.requestState() === undefined) {
        const refused = await refusedByLimits(limits, principal);
        if (refused !== undefined) return refused;
      }
      if (options.tasks !== undefined) {
        const task = await callAsTask(options.tasks, tool, parsed.data, ctx, principal);
        // resultType "task": the SDK passes a tools/call resultType through as the handler set it.
        if (task !== undefined) return task as CallToolResult;
      }
      const charge =
        limits === undefined ? {} : { chargeModelTokens: (n: number) => limits.chargeTokens(principal, n) };
      const run = async (view: EraRequestView | undefined) =>
        withModelPreferences(
          await tool.run(parsed.data, { ...toolContextOf(ctx, principal, view, transportSignal), ...charge }),
          options.modelPreferences ?? 'send',
        );
      const signal =
        transportSignal === undefined ? ctx.mcpReq.signal : AbortSignal.any([ctx.mcpReq.signal, transportSignal]);
      // A front that admitted the request already (HTTP) handed its place over; otherwise (stdio) it is taken here.
      const handedOver = requestInfo === undefined ? undefined : options.admission?.claim(requestInfo);
      const release = handedOver ?? (await options.admission?.acquire(principal, signal));
      try {
        return await (era === undefined ? run(undefined) : era.serveToolCall(server, ctx, tool.name, run));
      } finally {
        release?.();
      }
    });

    if (options.tasks !== undefined) registerTaskHandlers(server, options.tasks, principal);
    options.extend?.(server, principal);
    return server;
  };
}

/** Runs a task's tool once, as the principal that created it, from the state and answers its record holds. */
function taskExecutor(
  byName: ReadonlyMap<string, AnyToolDefinition>,
  limits: PrincipalLimits | undefined,
  modelPreferences: ModelPreferencesMode,
): TaskExecutor {
  return async (record, run) => {
    const tool = byName.get(record.tool);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${record.tool}`);
    const parsed = tool.inputSchema.safeParse(record.arguments);
    if (!parsed.success) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidArgumentsMessage(tool.name, parsed.error));
    }
    const context: ToolContext = {
      principal: record.owner,
      ...(record.clientName !== undefined && { clientName: record.clientName }),
      clientCapabilities: record.capabilities,
      requestState: record.requestState,
      inputResponses: record.responses,
      // A client's state (a retry that became a task) is opened as a client's: single use holds for it.
      serverHeldState: record.clientState !== true,
      signal: run.signal,
      progress: async (progress, total, message) => run.progress(progress, total, message),
      // A task has no stream to log to (SEP-2663: no notifications/message on tasks).
      log: async () => undefined,
      ...(limits !== undefined && { chargeModelTokens: (n: number) => limits.chargeTokens(record.owner, n) }),
    };
    return withModelPreferences(await tool.run(parsed.data, context), modelPreferences);
  };
}
