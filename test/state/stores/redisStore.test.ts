/** The Redis store against a real redis-server: atomic single use and limits shared by two clients. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { silentLogger } from '../../../src/logger.js';
import { createRedisStore, isStoreUnavailableError, type SharedStore } from '../../../src/state/stores/index.js';
import { freePort } from '../../../scripts/fleet/processes.js';
import { missingBinaries, startRedis, type TestRedis } from '../../helpers/redis.js';

const missing = missingBinaries('redis-server');

describe.skipIf(missing.length > 0)('redis store', () => {
  let redis: TestRedis;
  const stores: SharedStore[] = [];
  const open = (url = redis.url): SharedStore => {
    const store = createRedisStore({ url, logger: silentLogger, commandTimeoutMs: 500 });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  it('consumes an id exactly once across instances, even when they race', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.ping(), b.ping()]);
    const expires = Date.now() + 60_000;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).consumeOnce('race-id', expires)),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await b.consumeOnce('other-id', expires)).toBe(true);
  });

  it('remembers a consumed id only as long as its state lives', async () => {
    const store = open();
    await store.ping();
    await store.consumeOnce('ttl-id', Date.now() + 30_000);
    const probe = new Redis(redis.url);
    try {
      const ttl = await probe.pttl('mmi:state:ttl-id');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(30_000);
    } finally {
      probe.disconnect();
    }
  });

  it('shares limits between instances, per key', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.ping(), b.ping()]);
    const onA = a.limiter({ name: 'calls-test', points: 3, durationSeconds: 60 });
    const onB = b.limiter({ name: 'calls-test', points: 3, durationSeconds: 60 });
    expect((await onA.take('alice')).allowed).toBe(true);
    expect((await onB.take('alice')).allowed).toBe(true);
    expect((await onA.take('alice')).allowed).toBe(true);
    const refused = await onB.take('alice');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterMs).toBeGreaterThan(0);
    expect((await onB.take('bob')).allowed).toBe(true);
  });

  it('fails closed, fast, when Redis is not there', async () => {
    const store = open(`redis://127.0.0.1:${await freePort()}`);
    const failure = await store.consumeOnce('x', Date.now() + 1000).catch((error: unknown) => error);
    expect(isStoreUnavailableError(failure)).toBe(true);
    expect(isStoreUnavailableError(await store.ping().catch((error: unknown) => error))).toBe(true);
    const limiter = store.limiter({ name: 'calls', points: 1, durationSeconds: 60 });
    expect(isStoreUnavailableError(await limiter.take('alice').catch((error: unknown) => error))).toBe(true);
  });
});
