/**
 * Which tasks changed status, told to every instance that may hold a listener for them (`notifications/tasks`).
 * An event names only the task: a listener reads the record itself, so it sends what `tasks/get` would answer and
 * nothing crosses the bus but an unguessable id. In one process the bus is a set of callbacks; across a fleet it is a
 * Redis pub/sub channel (redisTaskEvents.ts).
 */
export type TaskEventListener = (taskId: string) => void;

export interface TaskEventBus {
  /** Tells every listener (on every instance) that the task's status changed. Never throws. */
  publish(taskId: string): void;
  /** Returns the unsubscribe. */
  subscribe(listener: TaskEventListener): () => void;
  close(): Promise<void>;
}

export function createLocalTaskEvents(): TaskEventBus {
  const listeners = new Set<TaskEventListener>();
  return {
    publish(taskId) {
      for (const listener of [...listeners]) {
        try {
          listener(taskId);
        } catch {
          // One listener's failure is its own: the others still hear of the change.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
