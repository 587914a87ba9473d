/**
 * Where tasks are kept: durable before `tools/call` answers `CreateTaskResult` (SEP-2663: a `tasks/get` for the id
 * must resolve by then). `memory` keeps them in this process; the Redis store (redisTaskStore.ts) lets every
 * instance of a fleet see, answer, resume and cancel them.
 */
import { isTerminal, type TaskRecord, type TaskStatus } from './taskRecord.js';

/** How many tasks one principal may hold: open ones (a refusal past it), and all retained (oldest finished evicted). */
export interface TaskCaps {
  maxOpenPerPrincipal: number;
  maxRetainedPerPrincipal: number;
}

export const DEFAULT_TASK_CAPS: TaskCaps = { maxOpenPerPrincipal: 32, maxRetainedPerPrincipal: 256 };

export type TaskChange = (record: TaskRecord) => TaskRecord | undefined;

export interface TaskUpdate {
  record: TaskRecord;
  /** False when `change` left the record as it was. */
  changed: boolean;
}

export interface TaskStore {
  readonly kind: 'memory' | 'redis';
  /** Stores a new task; false (nothing stored) when its owner already has `maxOpenPerPrincipal` open tasks. */
  create(record: TaskRecord): Promise<boolean>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies `change` atomically against concurrent updates; undefined for a task that is not (or no longer) kept. */
  update(taskId: string, change: TaskChange): Promise<TaskUpdate | undefined>;
  /** Tasks kept, by status (for metrics). */
  counts(): Promise<Record<TaskStatus, number>>;
  close(): Promise<void>;
}

export function emptyCounts(): Record<TaskStatus, number> {
  return { working: 0, input_required: 0, completed: 0, cancelled: 0, failed: 0 };
}

/** The store of one process. Expired tasks (past `createdAt + ttlMs`) are dropped when next seen or swept. */
export function createMemoryTaskStore(caps: TaskCaps = DEFAULT_TASK_CAPS, now: () => number = Date.now): TaskStore {
  const tasks = new Map<string, TaskRecord>();
  const byOwner = new Map<string, Set<string>>();
  const expired = (record: TaskRecord): boolean => now() >= record.createdAtMs + record.ttlMs;
  const drop = (record: TaskRecord): void => {
    tasks.delete(record.taskId);
    const owned = byOwner.get(record.owner);
    owned?.delete(record.taskId);
    if (owned?.size === 0) byOwner.delete(record.owner);
  };
  const live = (taskId: string): TaskRecord | undefined => {
    const record = tasks.get(taskId);
    if (record !== undefined && expired(record)) {
      drop(record);
      return undefined;
    }
    return record;
  };
  const ownedBy = (owner: string): TaskRecord[] =>
    [...(byOwner.get(owner) ?? [])].flatMap((id) => {
      const record = live(id);
      return record === undefined ? [] : [record];
    });
  // Tasks of principals that never come back are dropped by a sweep, at most once a minute, when a task is created.
  let lastSweep = now();
  const sweep = (): void => {
    if (now() - lastSweep < 60_000) return;
    lastSweep = now();
    for (const id of [...tasks.keys()]) live(id);
  };
  return {
    kind: 'memory',
    async create(record) {
      sweep();
      const owned = ownedBy(record.owner);
      if (owned.filter((task) => !isTerminal(task.status)).length >= caps.maxOpenPerPrincipal) return false;
      const finished = owned.filter((task) => isTerminal(task.status)).sort((a, b) => a.createdAtMs - b.createdAtMs);
      for (let excess = owned.length + 1 - caps.maxRetainedPerPrincipal; excess > 0 && finished.length > 0; excess--) {
        drop(finished.shift() as TaskRecord);
      }
      tasks.set(record.taskId, structuredClone(record));
      const set = byOwner.get(record.owner) ?? new Set<string>();
      set.add(record.taskId);
      byOwner.set(record.owner, set);
      return true;
    },
    async get(taskId) {
      const record = live(taskId);
      return record === undefined ? undefined : structuredClone(record);
    },
    async update(taskId, change) {
      const record = live(taskId);
      if (record === undefined) return undefined;
      const next = change(structuredClone(record));
      if (next === undefined) return { record: structuredClone(record), changed: false };
      tasks.set(taskId, structuredClone(next));
      return { record: next, changed: true };
    },
    async counts() {
      const counts = emptyCounts();
      for (const id of [...tasks.keys()]) {
        const record = live(id);
        if (record !== undefined) counts[record.status]++;
      }
      return counts;
    },
    async close() {
      tasks.clear();
      byOwner.clear();
    },
  };
}
