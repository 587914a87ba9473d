/**
 * Tasks kept in Redis, so every instance of a fleet can see, answer, resume and cancel them. A task is one JSON
 * value with the task's TTL (`PX`); each principal has a sorted set of its open tasks and one of all it holds,
 * scored by expiry, which a Lua script reads to enforce the caps atomically. Updates are compare-and-set on the
 * whole value (a Lua script), retried when another instance changed it first.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

import type { Redis } from 'ioredis';

import { StoreUnavailableError } from '../../state/stores/storeUnavailableError.js';
import { redactStoreUrl } from '../../state/stores/redisStore.js';
import { isTerminal, type TaskRecord, type TaskStatus } from './taskRecord.js';
import { DEFAULT_TASK_CAPS, emptyCounts, type TaskCaps, type TaskStore } from './taskStore.js';

export interface RedisTaskStoreOptions {
  url: string;
  /** Prefix of every key; default `mmi:`. */
  keyPrefix?: string;
  caps?: TaskCaps;
  /** Per-command timeout in milliseconds; default 2000. */
  commandTimeoutMs?: number;
}

const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
local excess = redis.call('ZCARD', KEYS[3]) + 1 - tonumber(ARGV[5])
if excess > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if excess <= 0 then break end
    if not redis.call('ZSCORE', KEYS[2], id) then
      redis.call('DEL', ARGV[8] .. id)
      redis.call('ZREM', KEYS[3], id)
      excess = excess - 1
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[6])
return 1`;

const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[3] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
return 1`;

const MAX_CAS_ATTEMPTS = 20;

function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis }).Redis;
}

export function createRedisTaskStore(options: RedisTaskStoreOptions): TaskStore {
  const description = redactStoreUrl(options.url);
  const prefix = `${options.keyPrefix ?? 'mmi:'}task:`;
  const caps = options.caps ?? DEFAULT_TASK_CAPS;
  const timeout = options.commandTimeoutMs ?? 2000;
  const RedisClient = loadRedis();
  const client = new RedisClient(options.url, {
    maxRetriesPerRequest: 1,
    commandTimeout: timeout,
    connectTimeout: timeout,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  client.on('error', () => undefined);
  const taskKey = (taskId: string): string => `${prefix}${taskId}`;
  // Principals are free text: their sets are named by a digest.
  const ownerKey = (owner: string, kind: 'open' | 'all'): string =>
    `${prefix}${kind}:${createHash('sha256').update(owner).digest('base64url').slice(0, 22)}`;
  const command = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new StoreUnavailableError(description, { cause: error });
    }
  };
  const read = async (taskId: string): Promise<{ json: string; record: TaskRecord } | undefined> => {
    const json = await command(() => client.get(taskKey(taskId)));
    return json === null ? undefined : { json, record: JSON.parse(json) as TaskRecord };
  };
  return {
    kind: 'redis',
    async create(record) {
      const now = Date.now();
      const created = await command(() =>
        client.eval(
          CREATE,
          3,
          taskKey(record.taskId),
          ownerKey(record.owner, 'open'),
          ownerKey(record.owner, 'all'),
          JSON.stringify(record),
          String(record.ttlMs),
          String(now),
          String(caps.maxOpenPerPrincipal),
          String(caps.maxRetainedPerPrincipal),
          record.taskId,
          String(record.createdAtMs + record.ttlMs),
          prefix,
        ),
      );
      return created === 1;
    },
    async get(taskId) {
      return (await read(taskId))?.record;
    },
    async update(taskId, change) {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const current = await read(taskId);
        if (current === undefined) return undefined;
        const next = change(structuredClone(current.record));
        if (next === undefined) return { record: current.record, changed: false };
        const swapped = await command(() =>
          client.eval(
            COMPARE_AND_SET,
            2,
            taskKey(taskId),
            ownerKey(next.owner, 'open'),
            current.json,
            JSON.stringify(next),
            isTerminal(next.status) ? '1' : '0',
            taskId,
          ),
        );
        if (swapped === 1) return { record: next, changed: true };
      }
      throw new StoreUnavailableError(description, {
        cause: new Error(`task ${taskId} changed under ${MAX_CAS_ATTEMPTS} attempts to update it`),
      });
    },
    async counts() {
      const counts = emptyCounts();
      let cursor = '0';
      // Bounded: a scrape walks at most 100 pages of keys.
      for (let page = 0; page < 100; page++) {
        const [next, keys] = await command(() => client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500));
        const taskKeys = keys.filter((key) => !key.slice(prefix.length).includes(':'));
        if (taskKeys.length > 0) {
          for (const json of await command(() => client.mget(taskKeys))) {
            if (json !== null) counts[(JSON.parse(json) as TaskRecord).status as TaskStatus]++;
          }
        }
        cursor = next;
        if (cursor === '0') break;
      }
      return counts;
    },
    async close() {
      // Bounded: with Redis away a QUIT would wait for a connection that may never come back.
      const quit = client.quit().catch(() => undefined);
      await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
      client.disconnect();
    },
  };
}
