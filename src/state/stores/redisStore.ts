/**
 * The fleet's store: Redis through ioredis. A consumed state id is one `SET … NX PX` (atomic: of two
 * instances presenting the same id at once exactly one gets OK); limits are rate-limiter-flexible's
 * Redis limiter (one Lua script per check). Commands fail fast instead of queueing while Redis is
 * away (no offline queue, a command timeout), so callers can fail closed at once; ioredis reconnects
 * in the background.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

import type { Logger } from '../../logger.js';
import { wrapRateLimiter } from './pointLimiter.js';
import type { SharedStore } from './store.js';
import { StoreUnavailableError } from './storeUnavailableError.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string;
  logger: Logger;
  /** Prefix of every key this store writes; default `mmi:`. */
  keyPrefix?: string;
  /** Per-command timeout in milliseconds; default 2000. */
  commandTimeoutMs?: number;
}

const STATE_KEYS = 'state:';
const KEPT_KEYS = 'kept:';

/**
 * ioredis (about 50 files) is required when a Redis store is made, not when this module is imported: every process
 * imports the stores, few use Redis. It is a CommonJS package, so loading it here is synchronous.
 */
function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis }).Redis;
}

/** The URL without credentials, for logs and errors. */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'redis (unparsable URL)';
  }
}

export function createRedisStore(options: RedisStoreOptions): SharedStore {
  const description = redactStoreUrl(options.url);
  const prefix = options.keyPrefix ?? 'mmi:';
  const timeout = options.commandTimeoutMs ?? 2000;
  const RedisClient = loadRedis();
  const client = new RedisClient(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: timeout,
    connectTimeout: timeout,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Reported once per change of state, not once per reconnect attempt.
  let reachable: boolean | undefined;
  const report = (now: boolean, detail = ''): void => {
    if (reachable === now) return;
    reachable = now;
    if (now) options.logger.info(`store: ${description} reachable`);
    else options.logger.warn(`store: ${description} unreachable${detail}; MRTR rounds are refused until it is back`);
  };
  client.on('ready', () => report(true));
  client.on('error', (error: Error) => report(false, ` (${error.message})`));
  client.on('end', () => report(false));

  /** Waits (up to the command timeout) for a connection being made; a command would fail at once. */
  function whenReady(): Promise<void> {
    if (client.status === 'ready') return Promise.resolve();
    if (client.status !== 'wait' && client.status !== 'connecting' && client.status !== 'connect') {
      return Promise.reject(new Error(`not connected (${client.status})`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        client.off('ready', onReady);
        reject(new Error(`not connected within ${timeout} ms`));
      }, timeout);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      client.once('ready', onReady);
    });
  }

  async function command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new StoreUnavailableError(description, { cause: error });
    }
  }

  return {
    kind: 'redis',
    description,
    async consumeOnce(id, expiresAtMs) {
      const ttlMs = Math.max(1000, Math.ceil(expiresAtMs - Date.now()));
      const answer = await command(() => client.set(`${prefix}${STATE_KEYS}${id}`, '1', 'PX', ttlMs, 'NX'));
      return answer === 'OK';
    },
    async keep(key, value, expiresAtMs) {
      const ttlMs = Math.max(1000, Math.ceil(expiresAtMs - Date.now()));
      await command(() => client.set(`${prefix}${KEPT_KEYS}${key}`, value, 'PX', ttlMs));
    },
    async recall(key) {
      const value = await command(() => client.get(`${prefix}${KEPT_KEYS}${key}`));
      return value ?? undefined;
    },
    limiter({ name, points, durationSeconds }) {
      const options = {
        storeClient: client,
        keyPrefix: `${prefix}${name}`,
        points,
        duration: durationSeconds,
        rejectIfRedisNotReady: true,
      };
      return wrapRateLimiter((lib) => new lib.RateLimiterRedis(options), points, description);
    },
    async ping() {
      await command(async () => {
        await whenReady();
        return client.ping();
      });
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
