/**
 * Who listens for which task's status (SEP-2663 `notifications/tasks`, opened with `subscriptions/listen`). A watch
 * covers only tasks its principal owns — another principal's id, like an unknown one, is left out of the
 * acknowledgement and never heard of again. It delivers the task as `tasks/get` would answer it: once when the watch
 * starts, then at each change of status; it ends once every task it covers has finished, or when the last of them
 * expires. Watches are bounded per principal and in all.
 */
import { isTerminal, taskView, type TaskRecord } from './taskRecord.js';
import type { TaskEventBus } from './taskEvents.js';
import type { TaskStore } from './taskStore.js';

export interface TaskWatchLimits {
  /** Watches one principal may hold open at once. */
  maxPerPrincipal: number;
  /** Watches this process holds open at once, all principals together. */
  maxTotal: number;
  /** Task ids one watch may cover; the rest of a longer list is left out of the acknowledgement. */
  maxTaskIds: number;
}

export const DEFAULT_TASK_WATCH_LIMITS: TaskWatchLimits = { maxPerPrincipal: 8, maxTotal: 1024, maxTaskIds: 64 };

export interface TaskWatchListener {
  /** The task as `tasks/get` answers it now (`DetailedTask`, without `resultType`). */
  task(view: Record<string, unknown>): void;
  /** Every covered task has finished or expired: nothing more will come. */
  end(): void;
}

export interface TaskWatch {
  /** The requested ids this watch covers, in the order asked. */
  readonly taskIds: readonly string[];
  close(): void;
}

/** Why a watch was refused: the principal's cap or the process's. */
export class TaskWatchRefusedError extends Error {
  override name = 'TaskWatchRefusedError';
}

export interface TaskWatchers {
  /** Resolves once the watch is registered; the current state of each covered task follows through `listener`. */
  watch(owner: string, taskIds: readonly string[], listener: TaskWatchListener): Promise<TaskWatch>;
  readonly open: number;
}

interface Watcher {
  owner: string;
  listener: TaskWatchListener;
  /** Per covered task, the last record delivered (undefined: nothing yet). */
  last: Map<string, TaskRecord | undefined>;
  closed: boolean;
  /** Ends the watch when the last covered task expires (an expiry is no status change: nothing else tells it). */
  expiry?: ReturnType<typeof setTimeout>;
}

/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2_147_483_647;

export function createTaskWatchers(
  store: TaskStore,
  bus: TaskEventBus,
  limits: TaskWatchLimits = DEFAULT_TASK_WATCH_LIMITS,
): TaskWatchers {
  const byTask = new Map<string, Set<Watcher>>();
  const perOwner = new Map<string, number>();
  let open = 0;
  let unsubscribe: (() => void) | undefined;

  const release = (watcher: Watcher): void => {
    if (watcher.closed) return;
    watcher.closed = true;
    clearTimeout(watcher.expiry);
    for (const taskId of watcher.last.keys()) {
      const set = byTask.get(taskId);
      set?.delete(watcher);
      if (set?.size === 0) byTask.delete(taskId);
    }
    const held = (perOwner.get(watcher.owner) ?? 1) - 1;
    if (held === 0) perOwner.delete(watcher.owner);
    else perOwner.set(watcher.owner, held);
    open--;
    if (open === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };

  /** Delivers `record` when it is newer than, and differs in status from, what the watcher last had of the task. */
  const offer = (watcher: Watcher, taskId: string, record: TaskRecord | undefined): void => {
    if (watcher.closed || !watcher.last.has(taskId)) return;
    const last = watcher.last.get(taskId);
    if (record === undefined || record.owner !== watcher.owner) {
      // Expired (or never ours): nothing more to say about it.
      watcher.last.delete(taskId);
      byTask.get(taskId)?.delete(watcher);
    } else if (
      last === undefined ||
      (record.lastUpdatedAtMs >= last.lastUpdatedAtMs && record.status !== last.status)
    ) {
      watcher.last.set(taskId, record);
      watcher.listener.task(taskView(record));
    }
    const remaining = [...watcher.last.values()];
    if (remaining.every((seen) => seen !== undefined && isTerminal(seen.status))) {
      release(watcher);
      watcher.listener.end();
    }
  };

  const changed = (taskId: string): void => {
    const watching = byTask.get(taskId);
    if (watching === undefined) return;
    void store.get(taskId).then(
      (record) => {
        for (const watcher of [...watching]) offer(watcher, taskId, record);
      },
      // A store away is a missed wake-up: the client still polls.
      () => undefined,
    );
  };

  return {
    get open() {
      return open;
    },
    async watch(owner, taskIds, listener) {
      if (open >= limits.maxTotal) {
        throw new TaskWatchRefusedError(`this server holds its cap of ${limits.maxTotal} task listeners; retry later`);
      }
      if ((perOwner.get(owner) ?? 0) >= limits.maxPerPrincipal) {
        throw new TaskWatchRefusedError(
          `this principal holds its cap of ${limits.maxPerPrincipal} task listeners; close one first`,
        );
      }
      const asked = [...new Set(taskIds)].slice(0, limits.maxTaskIds);
      const watcher: Watcher = { owner, listener, last: new Map(), closed: false };
      open++;
      perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
      unsubscribe ??= bus.subscribe(changed);
      let records: Array<TaskRecord | undefined>;
      try {
        records = await Promise.all(asked.map((taskId) => store.get(taskId)));
      } catch (error) {
        release(watcher);
        throw error;
      }
      const covered = asked.filter((_, index) => records[index]?.owner === owner);
      const expiresAt = Math.max(
        0,
        ...records.flatMap((record) => (record?.owner === owner ? [record.createdAtMs + record.ttlMs] : [])),
      );
      if (covered.length > 0) {
        watcher.expiry = setTimeout(
          () => {
            if (watcher.closed) return;
            release(watcher);
            listener.end();
          },
          Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - Date.now())),
        );
        watcher.expiry.unref();
      }
      // Registered before the current state goes out: a change from now on is heard.
      for (const taskId of covered) {
        watcher.last.set(taskId, undefined);
        const set = byTask.get(taskId) ?? new Set<Watcher>();
        set.add(watcher);
        byTask.set(taskId, set);
      }
      queueMicrotask(() => {
        if (covered.length === 0 && !watcher.closed) {
          release(watcher);
          listener.end();
          return;
        }
        for (const taskId of covered) changed(taskId);
      });
      return { taskIds: covered, close: () => release(watcher) };
    },
  };
}
