/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): what a task is on the wire and what this
 * server keeps of it. A task is a `tools/call` run in the background; the client polls `tasks/get`, answers the
 * task's `inputRequests` with `tasks/update`, and may `tasks/cancel` it.
 */
import type { CallToolResult, ClientCapabilities, InputRequest } from '@modelcontextprotocol/server';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

/** Whether a tool runs as a task: never, when the client declared the extension, or only as one. */
export type TaskSupport = 'never' | 'optional' | 'always';

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled', 'failed'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** What the store keeps of one task. Never leaves the server as is: `taskView` is the wire shape. */
export interface TaskRecord {
  taskId: string;
  /** The principal that created the task: the only one that may see, answer or cancel it. */
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The capabilities the creating request declared: every round of the task runs with them. */
  capabilities: ClientCapabilities;
  clientName?: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAtMs: number;
  lastUpdatedAtMs: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** The tool's own sealed state between its rounds (kept here, never sent to the client). */
  requestState?: string;
  /**
   * The state came from a client's retry (a tool that becomes a task after its first MRTR rounds): the first run
   * opens it as a client's state, single use included; later states are the task's own.
   */
  clientState?: boolean;
  /** How many times the task has asked for input. */
  round: number;
  /** Every task input key issued so far (never issued twice). */
  usedKeys?: string[];
  /** Outstanding requests while `input_required`, keyed by task input key. */
  inputRequests?: Record<string, InputRequest>;
  /** The tool's own key for each outstanding task input key. */
  toolKeys?: Record<string, string>;
  /** Answers received so far for the outstanding requests, keyed by the tool's own key. */
  responses?: Record<string, unknown>;
  result?: CallToolResult;
  error?: TaskError;
  /** `tasks/cancel` arrived: the run that holds the task stops at its next check. */
  cancelRequested?: boolean;
  /** How many runs of the task have started (a run after an instance died counts again). */
  runs: number;
}

/**
 * The task input keys for one round's tool keys: the tool's own key while the task has not used it before (so a
 * host shows `pick_files`, not a made-up name), else `KEY#N` — every key unique over the task's life (SEP-2663).
 * Returns task key -> tool key.
 */
export function taskInputKeys(toolKeys: readonly string[], used: readonly string[]): Record<string, string> {
  const taken = new Set(used);
  const keys = Object.create(null) as Record<string, string>;
  for (const key of toolKeys) {
    let taskKey = key;
    for (let n = 2; taken.has(taskKey); n++) taskKey = `${key}#${n}`;
    taken.add(taskKey);
    keys[taskKey] = key;
  }
  return keys;
}

/** `Task` plus its status-specific field (`DetailedTask`), as `tasks/get` answers and `CreateTaskResult` starts. */
export function taskView(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAtMs).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAtMs).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
    ...(record.status === 'input_required' && { inputRequests: record.inputRequests ?? {} }),
    ...(record.status === 'completed' && record.result !== undefined && { result: record.result }),
    ...(record.status === 'failed' && record.error !== undefined && { error: record.error }),
  };
}
