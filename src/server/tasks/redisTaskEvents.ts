/**
 * Task status changes across a fleet: a Redis pub/sub channel. Every instance publishes the ids of the tasks whose
 * status it changed and hears every other instance's, so a client listening on instance B learns that the task
 * instance A ran has finished. Both connections open on first use: an instance nobody listens on never subscribes.
 */
import { createRequire } from 'node:module';

import type { Redis } from 'ioredis';

import { createLocalTaskEvents, type TaskEventBus } from './taskEvents.js';

export interface RedisTaskEventsOptions {
  url: string;
  /** Prefix of the channel's name; default `mmi:`. */
  keyPrefix?: string;
}

/** How long closing waits for Redis before it drops the connections. */
const CLOSE_TIMEOUT_MS = 1_000;

export function createRedisTaskEvents(options: RedisTaskEventsOptions): TaskEventBus {
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis };
  const channel = `${options.keyPrefix ?? 'mmi:'}task-events`;
  const local = createLocalTaskEvents();
  const connect = (): Redis => {
    const client = new RedisClient(options.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    client.on('error', () => undefined);
    return client;
  };
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  const listen = (): void => {
    if (subscriber !== undefined) return;
    subscriber = connect();
    subscriber.on('message', (from: string, taskId: string) => {
      if (from === channel) local.publish(taskId);
    });
    // ioredis subscribes again by itself after a reconnection.
    subscriber.subscribe(channel).catch(() => undefined);
  };
  return {
    publish(taskId) {
      publisher ??= connect();
      // Lost when Redis is away: listeners miss a wake-up, and clients still poll (notifications are a hint).
      publisher.publish(channel, taskId).catch(() => undefined);
    },
    subscribe(listener) {
      listen();
      return local.subscribe(listener);
    },
    async close() {
      await local.close();
      const clients = [publisher, subscriber].filter((client): client is Redis => client !== undefined);
      const quitting = Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
      await Promise.race([quitting, new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref())]);
      for (const client of clients) client.disconnect();
    },
  };
}
