/**
 * The life of a task (SEP-2663): created durable, run by the queue, parked in `input_required` until
 * `tasks/update` brings every answer, then run again from the tool's own sealed state — the same rounds as MRTR,
 * without the client re-sending arguments. Only the principal that created a task may see, answer or cancel it;
 * anyone else is told it does not exist.
 */
import { randomBytes } from 'node:crypto';

import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { Logger } from '../../logger.js';
import { describeInternalError } from '../internalErrors.js';
import { isTerminal, taskInputKeys, taskView, type TaskError, type TaskRecord, type TaskStatus } from './taskRecord.js';
import { createLocalTaskEvents, type TaskEventBus } from './taskEvents.js';
import type { TaskQueue } from './taskQueue.js';
import type { TaskStore } from './taskStore.js';
import { createTaskWatchers, type TaskWatchers, type TaskWatchLimits } from './taskWatchers.js';

export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
/** Progress is written to the store at most this often (a tool may report many steps a second). */
const PROGRESS_WRITE_INTERVAL_MS = 200;

/** What a run of a task gets besides its record: cancellation and a progress sink. */
export interface TaskRunContext {
  signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): void;
}

/** Runs the task's tool once, from its sealed state with the answers received (the server wires the tool in). */
export type TaskExecutor = (record: TaskRecord, run: TaskRunContext) => Promise<CallToolResult | InputRequiredResult>;

export interface TaskEvents {
  /** A task reached `status` (metrics). */
  taskStatus?(status: TaskStatus): void;
}

export interface TaskServiceOptions {
  store: TaskStore;
  queue: TaskQueue;
  logger: Logger;
  ttlMs?: number;
  pollIntervalMs?: number;
  events?: TaskEvents;
  /** Where status changes are told (`notifications/tasks`): this process by default, Redis pub/sub on a fleet. */
  bus?: TaskEventBus;
  watchLimits?: TaskWatchLimits;
  now?: () => number;
}

export interface NewTask {
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  capabilities: ClientCapabilities;
  clientName?: string;
  /** A retry that becomes a task (MRTR, then a task): its `requestState` and `inputResponses`, for the first run. */
  retry?: { requestState?: string; inputResponses?: Record<string, unknown> };
}

export interface TaskService {
  /**
   * Stores the task and queues its first run; resolves to the `CreateTaskResult` once `tasks/get` would find it, or
   * to undefined when the principal already has its cap of unfinished tasks (the call then runs as an ordinary one).
   */
  create(task: NewTask): Promise<Record<string, unknown> | undefined>;
  get(owner: string, taskId: string): Promise<Record<string, unknown>>;
  update(owner: string, taskId: string, inputResponses: Record<string, unknown>): Promise<void>;
  cancel(owner: string, taskId: string): Promise<void>;
  /** Listeners for status changes of tasks a principal owns (`subscriptions/listen`, taskWatchers.ts). */
  readonly watchers: TaskWatchers;
  /** Starts running queued tasks with `execute`. */
  start(execute: TaskExecutor): void;
  counts(): Promise<Record<TaskStatus, number>>;
  close(): Promise<void>;
}

function notFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId.slice(0, 64)}`);
}

/** 128 random bits: a task id is a handle nobody can guess. */
export function newTaskId(): string {
  return randomBytes(16).toString('base64url');
}

function asTaskError(error: unknown, logger: Logger, tool: string): TaskError {
  if (error instanceof ProtocolError) {
    return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  }
  logger.warn(`task ${tool}: internal error: ${describeInternalError(error)}`, 'internal_error');
  return { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
}

export function createTaskService(options: TaskServiceOptions): TaskService {
  const { store, queue, logger } = options;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS;
  /** Runs in this process, by task id: `tasks/cancel` here aborts at once; elsewhere the watcher sees the flag. */
  const running = new Map<string, AbortController>();

  const owned = async (owner: string, taskId: string): Promise<TaskRecord> => {
    const record = typeof taskId === 'string' ? await store.get(taskId) : undefined;
    if (record === undefined || record.owner !== owner) throw notFound(String(taskId));
    return record;
  };
  const bus = options.bus ?? createLocalTaskEvents();
  const watchers = createTaskWatchers(store, bus, options.watchLimits);
  /** The task's status changed: metrics, and whoever listens for it. */
  const reached = (taskId: string, status: TaskStatus): void => {
    options.events?.taskStatus?.(status);
    bus.publish(taskId);
  };
  const settle = (record: TaskRecord, status: TaskStatus, fields: Partial<TaskRecord>): TaskRecord => {
    const next: TaskRecord = { ...record, ...fields, status, lastUpdatedAtMs: now() };
    delete next.clientState; // after the first run, every state is the task's own
    if (status !== 'input_required') {
      delete next.inputRequests;
      delete next.toolKeys;
      delete next.responses;
    }
    if (isTerminal(status)) delete next.requestState;
    return next;
  };

  async function runOnce(execute: TaskExecutor, taskId: string): Promise<void> {
    const claimed = await store.update(taskId, (record) =>
      record.status === 'working' && record.cancelRequested !== true
        ? { ...record, runs: record.runs + 1, lastUpdatedAtMs: now() }
        : undefined,
    );
    if (claimed === undefined) return;
    if (!claimed.changed) {
      if (claimed.record.cancelRequested === true && !isTerminal(claimed.record.status)) await markCancelled(taskId);
      return;
    }
    const record = claimed.record;
    const controller = new AbortController();
    running.set(taskId, controller);
    // Another instance may take the cancel: the flag in the store is looked at every poll interval.
    const watcher = setInterval(() => {
      void store.get(taskId).then(
        (current) => {
          if (current === undefined || current.cancelRequested === true) controller.abort();
        },
        () => undefined,
      );
    }, pollIntervalMs);
    watcher.unref();
    let lastProgressWrite = 0;
    const progress = (done: number, total?: number, message?: string): void => {
      const at = now();
      if (at - lastProgressWrite < PROGRESS_WRITE_INTERVAL_MS) return;
      lastProgressWrite = at;
      const text = message ?? (total === undefined ? `${done}` : `${done}/${total}`);
      void store
        .update(taskId, (current) =>
          current.status === 'working' ? { ...current, statusMessage: text, lastUpdatedAtMs: now() } : undefined,
        )
        .catch(() => undefined);
    };
    let outcome: { result: CallToolResult | InputRequiredResult } | { error: TaskError } | { cancelled: true };
    try {
      outcome = { result: await execute(record, { signal: controller.signal, progress }) };
    } catch (error) {
      // A run its cancellation stopped settles as cancelled below: what it threw on the way out is not logged as a
      // fault (an AbortError from a read, a provider call or the tool itself).
      outcome = controller.signal.aborted ? { cancelled: true } : { error: asTaskError(error, logger, record.tool) };
    } finally {
      clearInterval(watcher);
      running.delete(taskId);
    }
    let requeue: string | undefined;
    const done = await store.update(taskId, (current) => {
      if (current.status !== 'working') return undefined;
      if (current.cancelRequested === true || controller.signal.aborted || 'cancelled' in outcome) {
        return settle(current, 'cancelled', { statusMessage: 'Cancelled by the client' });
      }
      if ('error' in outcome)
        return settle(current, 'failed', { error: outcome.error, statusMessage: outcome.error.message });
      const result = outcome.result;
      if (!isInputRequiredResult(result)) {
        const { resultType: _complete, ...complete } = result as CallToolResult & { resultType?: string };
        return settle(current, 'completed', { result: complete as CallToolResult });
      }
      const requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
      const asked = Object.entries(result.inputRequests ?? {});
      if (asked.length === 0) {
        // A round with state and no question: run again at once from the new state.
        requeue = `${taskId}.s${current.runs}`;
        const { clientState: _spent, ...rest } = current;
        return { ...rest, ...(requestState !== undefined && { requestState }), lastUpdatedAtMs: now() };
      }
      const round = current.round + 1;
      const toolKeys = taskInputKeys(
        asked.map(([key]) => key),
        current.usedKeys ?? [],
      );
      const byToolKey = new Map(asked);
      const inputRequests = Object.create(null) as Record<string, InputRequest>;
      for (const [taskKey, key] of Object.entries(toolKeys))
        inputRequests[taskKey] = byToolKey.get(key) as InputRequest;
      const next = settle(current, 'input_required', {
        round,
        inputRequests,
        toolKeys,
        usedKeys: [...(current.usedKeys ?? []), ...Object.keys(toolKeys)],
        responses: {},
        statusMessage: `Waiting for input: ${asked.map(([key]) => key).join(', ')}`,
      });
      if (requestState === undefined) delete next.requestState;
      else next.requestState = requestState;
      return next;
    });
    if (done?.changed === true) reached(taskId, done.record.status);
    if (requeue !== undefined) await queue.enqueue(taskId, requeue);
  }

  async function markCancelled(taskId: string): Promise<void> {
    const done = await store.update(taskId, (current) =>
      isTerminal(current.status)
        ? undefined
        : settle(current, 'cancelled', { statusMessage: 'Cancelled by the client' }),
    );
    if (done?.changed === true) reached(taskId, 'cancelled');
  }

  return {
    async create(task) {
      const at = now();
      const record: TaskRecord = {
        taskId: newTaskId(),
        owner: task.owner,
        tool: task.tool,
        arguments: task.arguments,
        capabilities: task.capabilities,
        ...(task.clientName !== undefined && { clientName: task.clientName }),
        status: 'working',
        statusMessage: 'Queued',
        createdAtMs: at,
        lastUpdatedAtMs: at,
        ttlMs,
        pollIntervalMs,
        round: 0,
        runs: 0,
        ...(task.retry?.requestState !== undefined && { requestState: task.retry.requestState, clientState: true }),
        ...(task.retry?.inputResponses !== undefined && { responses: task.retry.inputResponses }),
      };
      if (!(await store.create(record))) {
        logger.info(`tasks: ${task.owner} holds its cap of unfinished tasks; ${task.tool} runs as an ordinary call`);
        return undefined;
      }
      reached(record.taskId, 'working');
      await queue.enqueue(record.taskId, `${record.taskId}.r0`);
      return { resultType: 'task', ...taskView(record) };
    },
    async get(owner, taskId) {
      return { resultType: 'complete', ...taskView(await owned(owner, taskId)) };
    },
    async update(owner, taskId, inputResponses) {
      await owned(owner, taskId);
      let ready = false;
      let round = 0;
      await store.update(taskId, (current) => {
        if (current.status !== 'input_required' || current.inputRequests === undefined) return undefined;
        const responses = { ...current.responses };
        let taken = 0;
        for (const [taskKey, response] of Object.entries(inputResponses)) {
          // Keys not outstanding (never issued, answered already, another round's) are ignored (SEP-2663).
          const key = Object.hasOwn(current.toolKeys ?? {}, taskKey) ? current.toolKeys?.[taskKey] : undefined;
          if (key === undefined || Object.hasOwn(responses, key)) continue;
          responses[key] = response;
          taken++;
        }
        if (taken === 0) return undefined;
        const outstanding = Object.values(current.toolKeys ?? {}).filter((key) => !Object.hasOwn(responses, key));
        if (outstanding.length > 0) {
          // `tasks/get` lists only what is still pending: an answered key leaves `inputRequests` (SEP-2663).
          const pending = Object.fromEntries(
            Object.entries(current.inputRequests).filter(([taskKey]) => {
              const key = current.toolKeys?.[taskKey];
              return key === undefined || !Object.hasOwn(responses, key);
            }),
          );
          return { ...current, responses, inputRequests: pending, lastUpdatedAtMs: now() };
        }
        ready = true;
        round = current.round;
        const next: TaskRecord = { ...current, responses, status: 'working', lastUpdatedAtMs: now() };
        next.statusMessage = 'Answers received; working';
        delete next.inputRequests;
        delete next.toolKeys;
        return next;
      });
      if (ready) {
        reached(taskId, 'working');
        await queue.enqueue(taskId, `${taskId}.r${round}`);
      }
    },
    async cancel(owner, taskId) {
      const record = await owned(owner, taskId);
      if (isTerminal(record.status)) return;
      const flagged = await store.update(taskId, (current) =>
        isTerminal(current.status) ? undefined : { ...current, cancelRequested: true, lastUpdatedAtMs: now() },
      );
      const local = running.get(taskId);
      if (local !== undefined) {
        local.abort();
        return;
      }
      // Not running anywhere that we know of: waiting for input, or queued. It ends now; a queued run finds it ended.
      if (flagged?.record.status === 'input_required' || flagged?.record.runs === 0) await markCancelled(taskId);
    },
    start(execute) {
      queue.start(async (taskId) => {
        try {
          await runOnce(execute, taskId);
        } catch (error) {
          logger.warn(`task run failed: ${describeInternalError(error)}`, 'internal_error');
        }
      });
    },
    watchers,
    counts: () => store.counts(),
    async close() {
      for (const controller of running.values()) controller.abort();
      await queue.close();
      await bus.close();
      await store.close();
    },
  };
}
