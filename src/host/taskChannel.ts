/**
 * The host's side of the tasks extension (SEP-2663), below the SDK client on purpose: the SDK 2.4 client refuses a
 * `tools/call` answered `resultType: "task"` and has no `tasks/update`. This transport wrapper hands such an answer
 * to the client as a complete result carrying the task under `TASK_RESULT_META` (so the call returns it), and sends
 * `tasks/get`, `tasks/update` and `tasks/cancel` itself, with ids of its own that never reach the client.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** Where the wrapped answer carries the server's task (never sent on the wire). */
export const TASK_RESULT_META = 'mcp-model-input/task';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `Task` fields the host reads from `CreateTaskResult` and `tasks/get`. */
export interface ServerTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';
  statusMessage?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  createdAt?: string;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string; data?: unknown };
}

export interface TaskChannel {
  /** The transport to hand the SDK client. */
  readonly transport: Transport;
  /** One request outside the SDK client: resolves with its result, rejects with its JSON-RPC error. */
  request(method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', params: Record<string, unknown>): Promise<unknown>;
}

export class TaskRequestError extends Error {
  override name = 'TaskRequestError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The task a wrapped `tools/call` answer carries, or undefined for an ordinary result. */
export function taskOfResult(result: unknown): ServerTask | undefined {
  const meta = (result as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const task = meta?.[TASK_RESULT_META] as ServerTask | undefined;
  return typeof task?.taskId === 'string' ? task : undefined;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Wraps `inner`. `envelope()` gives the `_meta` every 2026-07-28 request carries (revision, capabilities, client
 * info), read when each request is sent.
 */
export function createTaskChannel(inner: Transport, envelope: () => Record<string, unknown>): TaskChannel {
  const toolCalls = new Set<string | number>();
  const pending = new Map<string, Pending>();
  let next = 0;
  const transport: Transport = {
    start: () => inner.start(),
    close: async () => {
      for (const waiting of pending.values()) waiting.reject(new Error('connection closed'));
      pending.clear();
      await inner.close();
    },
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const body = message as { id?: string | number; method?: string };
      if (body.method === 'tools/call' && body.id !== undefined) toolCalls.add(body.id);
      return inner.send(message, options);
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
    setSupportedProtocolVersions: (versions: string[]) => inner.setSupportedProtocolVersions?.(versions),
  };
  Object.defineProperty(transport, 'sessionId', { get: () => inner.sessionId });
  inner.onclose = () => {
    for (const waiting of pending.values()) waiting.reject(new Error('connection closed'));
    pending.clear();
    transport.onclose?.();
  };
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const body = message as {
      id?: string | number;
      method?: string;
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
    if (body.method === undefined && typeof body.id === 'string' && pending.has(body.id)) {
      const waiting = pending.get(body.id) as Pending;
      pending.delete(body.id);
      if (body.error !== undefined) waiting.reject(new TaskRequestError(body.error.code, body.error.message));
      else waiting.resolve(body.result);
      return;
    }
    if (body.method === undefined && body.id !== undefined && toolCalls.delete(body.id)) {
      if (body.result?.['resultType'] === 'task') {
        const { resultType: _task, _meta, ...task } = body.result;
        const wrapped = {
          ...body,
          result: { resultType: 'complete', content: [], _meta: { ...(_meta as object), [TASK_RESULT_META]: task } },
        };
        transport.onmessage?.(wrapped as unknown as JSONRPCMessage, extra);
        return;
      }
    }
    transport.onmessage?.(message, extra);
  };
  return {
    transport,
    request(method, params) {
      const id = `mmi-task-${++next}`;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        inner
          .send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } } as unknown as JSONRPCMessage)
          .catch((error: unknown) => {
            pending.delete(id);
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
    },
  };
}
