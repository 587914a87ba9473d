/** The in-process task store: expiry at createdAt + ttlMs, the open cap, and the oldest finished task evicted. */
import { describe, expect, it } from 'vitest';

import type { TaskRecord } from '../../../src/server/tasks/taskRecord.js';
import { createMemoryTaskStore } from '../../../src/server/tasks/taskStore.js';

function record(taskId: string, owner: string, createdAtMs: number, status: TaskRecord['status'] = 'working') {
  return {
    taskId,
    owner,
    tool: 't',
    arguments: {},
    capabilities: {},
    status,
    createdAtMs,
    lastUpdatedAtMs: createdAtMs,
    ttlMs: 1000,
    pollIntervalMs: 100,
    round: 0,
    runs: 0,
  } satisfies TaskRecord;
}

describe('the memory task store', () => {
  it('drops a task once its TTL from creation has passed', async () => {
    let now = 0;
    const store = createMemoryTaskStore(undefined, () => now);
    expect(await store.create(record('a', 'alice', 0))).toBe(true);
    now = 999;
    expect((await store.get('a'))?.taskId).toBe('a');
    now = 1000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.update('a', (r) => r)).toBeUndefined();
  });

  it('refuses a principal past its open cap, counting only its unfinished tasks', async () => {
    const store = createMemoryTaskStore({ maxOpenPerPrincipal: 2, maxRetainedPerPrincipal: 10 }, () => 0);
    expect(await store.create(record('a', 'alice', 0))).toBe(true);
    expect(await store.create(record('b', 'alice', 0))).toBe(true);
    expect(await store.create(record('c', 'alice', 0))).toBe(false);
    // Another principal has its own count.
    expect(await store.create(record('d', 'bob', 0))).toBe(true);
    await store.update('a', (r) => ({ ...r, status: 'completed' }));
    expect(await store.create(record('c', 'alice', 0))).toBe(true);
  });

  it('evicts the oldest finished task when a principal holds its retained cap', async () => {
    let now = 0;
    const store = createMemoryTaskStore({ maxOpenPerPrincipal: 5, maxRetainedPerPrincipal: 3 }, () => now);
    for (const id of ['a', 'b', 'c']) {
      await store.create(record(id, 'alice', now++, 'completed'));
    }
    expect(await store.create(record('d', 'alice', now))).toBe(true);
    expect(await store.get('a')).toBeUndefined();
    expect((await store.get('b'))?.taskId).toBe('b');
    expect(await store.counts()).toMatchObject({ completed: 2, working: 1 });
  });
});
