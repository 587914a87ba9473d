/**
 * The tasks extension's service for a served root: tasks in this process with `--store memory:` (the default),
 * or kept in Redis, run on BullMQ and their status changes told over Redis pub/sub across the fleet with
 * `--store redis://…` (docs/tasks.md).
 */
import type { Logger } from '../logger.js';
import { createBullmqTaskQueue } from '../server/tasks/bullmqTaskQueue.js';
import { createRedisTaskEvents } from '../server/tasks/redisTaskEvents.js';
import { createRedisTaskStore } from '../server/tasks/redisTaskStore.js';
import { createLocalTaskQueue } from '../server/tasks/taskQueue.js';
import { createTaskService, type TaskService } from '../server/tasks/taskService.js';
import { createMemoryTaskStore, DEFAULT_TASK_CAPS } from '../server/tasks/taskStore.js';

export interface TaskServiceSettings {
  /** The `--store` value: `memory:` (or none) keeps tasks here; `redis://…` shares them with the fleet. */
  storeUrl?: string;
  logger: Logger;
  /** How long a task is kept after it was created (`--task-ttl`). */
  ttlSeconds?: number;
  /** Open (unfinished) tasks one principal may have (`--max-tasks-per-principal`); 8 times as many are kept. */
  maxOpenPerPrincipal?: number;
}

export function openTaskService(settings: TaskServiceSettings): TaskService {
  const maxOpen = settings.maxOpenPerPrincipal ?? DEFAULT_TASK_CAPS.maxOpenPerPrincipal;
  const caps = { maxOpenPerPrincipal: maxOpen, maxRetainedPerPrincipal: maxOpen * 8 };
  const shared = settings.storeUrl !== undefined && /^rediss?:\/\//.test(settings.storeUrl);
  return createTaskService({
    store: shared ? createRedisTaskStore({ url: settings.storeUrl as string, caps }) : createMemoryTaskStore(caps),
    queue: shared ? createBullmqTaskQueue({ url: settings.storeUrl as string }) : createLocalTaskQueue(),
    // Status changes reach listeners on every instance of a fleet (notifications/tasks).
    ...(shared && { bus: createRedisTaskEvents({ url: settings.storeUrl as string }) }),
    logger: settings.logger,
    ...(settings.ttlSeconds !== undefined && { ttlMs: settings.ttlSeconds * 1000 }),
  });
}
