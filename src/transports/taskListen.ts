/**
 * `subscriptions/listen` for task status (SEP-2663 over the 2026-07-28 subscriptions pattern), on the HTTP front: a
 * stateless server can reach a client only on a stream the client opened, so `notifications/tasks` go on the SSE
 * answer of a listen request that names `notifications.taskIds` and declares the tasks extension. The
 * acknowledgement names the ids covered (the caller's own tasks); each notification is the task as `tasks/get`
 * would answer it. The stream ends with the listen request's result once every covered task has finished, when the
 * server drains or closes, and silently when the client goes away. A listen request that names no task ids is the
 * SDK's to serve.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type AuthInfo,
  type ClientCapabilities,
} from '@modelcontextprotocol/server';

import { isPlainObject } from '../protocol/json.js';
import { TASKS_EXTENSION } from '../server/tasks/taskRecord.js';
import { TaskWatchRefusedError, type TaskWatch, type TaskWatchers } from '../server/tasks/taskWatchers.js';

/** What the front needs of the tasks extension to serve task listeners. */
export interface TaskListenSource {
  watchers: TaskWatchers;
  /** The principal of a request, as the server resolves it for `tasks/*`. */
  principal(authInfo: AuthInfo | undefined): string;
  serverInfo: { name: string; version: string };
}

export interface TaskListen {
  /** The answer to a listen request for task status, or undefined when `message` is not one (the SDK serves it). */
  serve(message: ListenMessage, request: Request, authInfo: AuthInfo | undefined): Promise<Response | undefined>;
  /** Ends every open stream with its listen result (drain, close). */
  closeAll(): void;
  readonly open: number;
}

export interface ListenMessage {
  id: string | number;
  method: string;
  params?: unknown;
}

const KEEP_ALIVE_MS = 15_000;
const MAX_TASK_ID_LENGTH = 256;
/** Retry-After (seconds) of a refused listener. */
const REFUSED_RETRY_AFTER_SECONDS = 5;

function rpcError(status: number, id: unknown, code: number, message: string, data?: unknown): Response {
  return Response.json(
    { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } },
    { status },
  );
}

/** The `taskIds` a listen request asks about: undefined when it names none, null when malformed. */
function requestedTaskIds(params: unknown): string[] | undefined | null {
  const notifications = isPlainObject(params) ? params['notifications'] : undefined;
  const taskIds = isPlainObject(notifications) ? notifications['taskIds'] : undefined;
  if (taskIds === undefined) return undefined;
  const valid =
    Array.isArray(taskIds) &&
    taskIds.every((id) => typeof id === 'string' && id.length > 0 && id.length <= MAX_TASK_ID_LENGTH);
  return valid ? (taskIds as string[]) : null;
}

function declaresTasks(params: unknown): boolean {
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  const capabilities = (isPlainObject(meta) ? meta[CLIENT_CAPABILITIES_META_KEY] : undefined) as
    ClientCapabilities | undefined;
  return isPlainObject(capabilities?.extensions?.[TASKS_EXTENSION]);
}

export function createTaskListen(source: TaskListenSource, keepAliveMs = KEEP_ALIVE_MS): TaskListen {
  const open = new Set<(graceful: boolean) => void>();

  async function serve(message: ListenMessage, request: Request, authInfo: AuthInfo | undefined) {
    if (message.method !== 'subscriptions/listen') return undefined;
    const taskIds = requestedTaskIds(message.params);
    if (taskIds === undefined) return undefined;
    const id = message.id;
    const method = request.headers.get('mcp-method');
    if (method !== null && method !== message.method) {
      return rpcError(400, id, -32020, `Bad Request: the Mcp-Method header names ${method.slice(0, 64)}`);
    }
    if (taskIds === null) {
      return rpcError(400, id, -32602, 'Invalid params: notifications.taskIds must be an array of task ids');
    }
    if (!declaresTasks(message.params)) {
      const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
      return rpcError(400, id, -32021, `Missing required client capability: ${TASKS_EXTENSION}`, data);
    }

    // Until the stream starts, what the watch delivers waits here (the acknowledgement goes first).
    const frames: string[] = [];
    let ended = false;
    let write = (frame: string): void => void frames.push(frame);
    let teardown = (_graceful: boolean): void => void (ended = true);
    const notify = (method: string, params: Record<string, unknown>): void =>
      write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params })}\n\n`);
    const stamp = { [SUBSCRIPTION_ID_META_KEY]: id };
    let watch: TaskWatch;
    try {
      watch = await source.watchers.watch(source.principal(authInfo), taskIds, {
        task: (view) => notify('notifications/tasks', { ...view, _meta: stamp }),
        end: () => teardown(true),
      });
    } catch (error) {
      if (error instanceof TaskWatchRefusedError) {
        const response = rpcError(429, id, -32603, `Too many task listeners: ${error.message}`);
        response.headers.set('retry-after', String(REFUSED_RETRY_AFTER_SECONDS));
        return response;
      }
      return rpcError(503, id, -32603, 'Task listeners are unavailable: the task store cannot be read');
    }

    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        let closed = false;
        const keepAlive = setInterval(() => write(': keepalive\n\n'), keepAliveMs);
        keepAlive.unref();
        const onAbort = (): void => teardown(false);
        write = (frame) => {
          if (closed) return;
          try {
            controller.enqueue(encoder.encode(frame));
          } catch {
            teardown(false);
          }
        };
        teardown = (graceful) => {
          if (closed) return;
          if (graceful) {
            const result = { resultType: 'complete', _meta: { ...stamp, [SERVER_INFO_META_KEY]: source.serverInfo } };
            write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
          }
          closed = true;
          watch.close();
          clearInterval(keepAlive);
          request.signal.removeEventListener('abort', onAbort);
          open.delete(teardown);
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        };
        notify('notifications/subscriptions/acknowledged', {
          _meta: stamp,
          notifications: { taskIds: [...watch.taskIds] },
        });
        for (const frame of frames.splice(0)) write(frame);
        if (ended || watch.taskIds.length === 0) {
          teardown(true);
          return;
        }
        open.add(teardown);
        if (request.signal.aborted) teardown(false);
        else request.signal.addEventListener('abort', onAbort, { once: true });
      },
      cancel() {
        teardown(false);
      },
    });
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  }

  return {
    serve,
    closeAll() {
      for (const teardown of [...open]) teardown(true);
    },
    get open() {
      return open.size;
    },
  };
}
