/**
 * The tasks extension on one low-level server: `tasks/get`, `tasks/update` and `tasks/cancel` for the principal
 * of the request, and the decision whether a `tools/call` becomes a task.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import type { AnyToolDefinition } from '../../flows/tool.js';
import { TASKS_EXTENSION } from './taskRecord.js';
import type { TaskService } from './taskService.js';

const taskIdParams = z.looseObject({ taskId: z.string().min(1).max(256) });
const updateParams = z.looseObject({
  taskId: z.string().min(1).max(256),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

/** Registers the three `tasks/*` methods; each answers only about tasks `principal` created. */
export function registerTaskHandlers(server: Server, tasks: TaskService, principal: string): void {
  // The three-argument form: `tasks/update` is the extension's own method, unknown to the SDK's method tables.
  server.setRequestHandler('tasks/get', { params: taskIdParams }, (params, ctx) => {
    requireExtension(ctx, 'tasks/get');
    return tasks.get(principal, params.taskId);
  });
  server.setRequestHandler('tasks/update', { params: updateParams }, async (params, ctx) => {
    requireExtension(ctx, 'tasks/update');
    // The SDK lifts `inputResponses` out of every request's params (it is MRTR's field too).
    const responses = (ctx.mcpReq.inputResponses ?? params.inputResponses) as Record<string, unknown> | undefined;
    if (responses === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tasks/update needs inputResponses');
    }
    await tasks.update(principal, params.taskId, responses);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, ctx) => {
    requireExtension(ctx, 'tasks/cancel');
    await tasks.cancel(principal, params.taskId);
    return {};
  });
}

/** The `tasks/*` methods answer only a request that declared the extension (SEP-2663): -32021 otherwise. */
function requireExtension(ctx: ServerContext, method: string): void {
  if (declaredCapabilities(ctx)?.extensions?.[TASKS_EXTENSION] !== undefined) return;
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities },
    `${method} needs the ${TASKS_EXTENSION} extension declared in the request's capabilities`,
  );
}

/** The capabilities a 2026-07-28 request declared in its envelope (undefined on 2025-11-25). */
function declaredCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/**
 * A new `tools/call` (no state, no answers) of a tool that allows tasks, from a request that declared the
 * extension, becomes a task — unless its principal holds its cap of unfinished tasks: the client declared that it
 * takes either answer, so the call then runs as an ordinary one and the store does not grow. A call of a tool that
 * needs a task, from a request that did not declare the extension, is -32021. A tool with `taskAfterInput` asks
 * its first questions over MRTR and becomes a task on a retry instead: the task's first run opens that retry's state
 * as a client's (verified and spent once) with its answers. Undefined: run the call as usual.
 */
export async function callAsTask(
  tasks: TaskService,
  tool: AnyToolDefinition,
  args: Record<string, unknown>,
  ctx: ServerContext,
  principal: string,
): Promise<Record<string, unknown> | undefined> {
  const support = tool.task ?? 'never';
  const state = ctx.mcpReq.requestState();
  const requestState = typeof state === 'string' ? state : undefined;
  const inputResponses = ctx.mcpReq.inputResponses as Record<string, unknown> | undefined;
  const retry = state !== undefined || inputResponses !== undefined;
  // A state that is not a string is not made a task: the ordinary path refuses it.
  if (
    support === 'never' ||
    (retry && tool.taskAfterInput !== true) ||
    (state !== undefined && requestState === undefined)
  ) {
    return undefined;
  }
  const declared = declaredCapabilities(ctx);
  if (declared?.extensions?.[TASKS_EXTENSION] === undefined) {
    if (support === 'optional') return undefined;
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities },
      `${tool.name} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's capabilities`,
    );
  }
  // A tool that asks first over MRTR becomes a task on the retry that answers (SEP-2663 composition).
  if (tool.taskAfterInput === true && !retry) return undefined;
  const info = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY] as
    { name?: unknown } | undefined;
  const created = await tasks.create({
    owner: principal,
    tool: tool.name,
    arguments: args,
    capabilities: declared,
    ...(typeof info?.name === 'string' && { clientName: info.name }),
    ...(retry && {
      retry: {
        ...(requestState !== undefined && { requestState }),
        ...(inputResponses !== undefined && { inputResponses }),
      },
    }),
  });
  if (created === undefined && support === 'always') {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Too many unfinished tasks for this principal: ${tool.name} runs only as a task; wait for one to finish, or cancel one (tasks/cancel)`,
    );
  }
  return created;
}
