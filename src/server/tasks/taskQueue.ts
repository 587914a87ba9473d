/**
 * What runs tasks. A queue hands task ids to `run`; a task that asked for input is enqueued again once its
 * answers are in. In one process (`createLocalTaskQueue`) runs are bounded in number and the waiting ids are all
 * it holds; across a fleet the BullMQ queue (bullmqTaskQueue.ts) lets any instance start or resume a task.
 */
export type TaskRun = (taskId: string) => Promise<void>;

export interface TaskQueue {
  readonly kind: 'local' | 'bullmq';
  /** Starts taking work; `run` never throws (failures are recorded on the task). */
  start(run: TaskRun): void;
  /** Queues one run of the task; `key` makes a repeated enqueue of the same run a no-op. */
  enqueue(taskId: string, key: string): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_TASK_CONCURRENCY = 4;

export function createLocalTaskQueue(concurrency = DEFAULT_TASK_CONCURRENCY): TaskQueue {
  const waiting: Array<{ taskId: string; key: string }> = [];
  const queuedKeys = new Set<string>();
  let running = 0;
  let run: TaskRun | undefined;
  let closed = false;
  const pump = (): void => {
    while (run !== undefined && !closed && running < concurrency && waiting.length > 0) {
      const { taskId, key } = waiting.shift() as { taskId: string; key: string };
      queuedKeys.delete(key);
      running++;
      const current = run;
      // One task per event-loop turn, so a burst of runs never holds the loop (as admitted calls start).
      setImmediate(() => {
        void current(taskId).finally(() => {
          running--;
          pump();
        });
      });
    }
  };
  return {
    kind: 'local',
    start(taskRun) {
      run = taskRun;
      pump();
    },
    async enqueue(taskId, key) {
      if (closed || queuedKeys.has(key)) return;
      queuedKeys.add(key);
      waiting.push({ taskId, key });
      pump();
    },
    async close() {
      closed = true;
      waiting.length = 0;
      queuedKeys.clear();
    },
  };
}
