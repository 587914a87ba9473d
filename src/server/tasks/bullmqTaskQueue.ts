/**
 * Task runs on BullMQ, a job queue on Redis: any instance's worker takes the next run, and a run whose instance
 * died (its job lock not renewed) is given to another instance by BullMQ's stalled-job check — the task then
 * resumes from the state its record holds. BullMQ is loaded only when a fleet store is configured.
 */
import { createRequire } from 'node:module';

import type * as BullMQ from 'bullmq';
import type { Queue as BullQueue, Worker as BullWorker } from 'bullmq';
import type { Redis } from 'ioredis';

import type { TaskQueue } from './taskQueue.js';
import { DEFAULT_TASK_CONCURRENCY } from './taskQueue.js';

export interface BullmqTaskQueueOptions {
  url: string;
  /** Queue name; default `mmi-tasks`. */
  name?: string;
  /** BullMQ's key prefix; default `mmi:bull`. */
  prefix?: string;
  concurrency?: number;
  /** How long a worker holds a run before it must renew its lock (default 30 s); a dead worker's run returns after it. */
  lockDurationMs?: number;
  /** How often workers look for runs whose lock expired (default 30 s). */
  stalledIntervalMs?: number;
}

const requireCjs = createRequire(import.meta.url);
/** How long closing waits for BullMQ before it drops the connections. */
const CLOSE_TIMEOUT_MS = 2_000;

export function createBullmqTaskQueue(options: BullmqTaskQueueOptions): TaskQueue {
  const { Queue, Worker } = requireCjs('bullmq') as typeof BullMQ;
  const { Redis: RedisClient } = requireCjs('ioredis') as { Redis: typeof Redis };
  const name = options.name ?? 'mmi-tasks';
  const prefix = options.prefix ?? 'mmi:bull';
  // BullMQ's workers block on Redis: their connections must retry forever (maxRetriesPerRequest null).
  const connection = (): Redis => new RedisClient(options.url, { maxRetriesPerRequest: null });
  const queueConnection = connection();
  const queue: BullQueue = new Queue(name, { connection: queueConnection, prefix });
  queue.on('error', () => undefined);
  let worker: BullWorker | undefined;
  let workerConnection: Redis | undefined;
  return {
    kind: 'bullmq',
    start(run) {
      workerConnection = connection();
      worker = new Worker(name, async (job) => run((job.data as { taskId: string }).taskId), {
        connection: workerConnection,
        prefix,
        concurrency: options.concurrency ?? DEFAULT_TASK_CONCURRENCY,
        ...(options.lockDurationMs !== undefined && { lockDuration: options.lockDurationMs }),
        ...(options.stalledIntervalMs !== undefined && { stalledInterval: options.stalledIntervalMs }),
        maxStalledCount: 3,
      });
      worker.on('error', () => undefined);
    },
    async enqueue(taskId, key) {
      await queue.add('run', { taskId }, { jobId: key, removeOnComplete: true, removeOnFail: true });
    },
    async close() {
      // Bounded: with Redis away, BullMQ's close waits for a connection that may never come back.
      const closing = Promise.all([worker?.close(true), queue.close()]).catch(() => undefined);
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref())]);
      for (const client of [queueConnection, workerConnection]) client?.disconnect();
    },
  };
}
