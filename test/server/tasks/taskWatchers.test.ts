/**
 * Task watches (src/server/tasks/taskWatchers.ts) on the memory store and the in-process bus: the owner's watch
 * gets the current state, then each change of status, and ends when its tasks finish or expire; a watch of someone
 * else's task covers nothing.
 */
import { describe, expect, it } from 'vitest';

import { createLocalTaskEvents } from '../../../src/server/tasks/taskEvents.js';
import type { TaskRecord } from '../../../src/server/tasks/taskRecord.js';
import { createMemoryTaskStore } from '../../../src/server/tasks/taskStore.js';
import { createTaskWatchers } from '../../../src/server/tasks/taskWatchers.js';

function record(taskId: string, owner: string, ttlMs = 3_600_000): TaskRecord {
  const at = Date.now();
  return {
    taskId,
    owner,
    tool: 't',
    arguments: {},
    capabilities: {},
    status: 'working',
    createdAtMs: at,
    lastUpdatedAtMs: at,
    ttlMs,
    pollIntervalMs: 1000,
    round: 0,
    runs: 0,
  };
}

function collector() {
  const views: Array<Record<string, unknown>> = [];
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  return { views, end, listener: { task: (view: Record<string, unknown>) => views.push(view), end: () => ended() } };
}

describe('task watches', () => {
  it("deliver the owner's task now and at each status change, then end once it finished", async () => {
    const store = createMemoryTaskStore();
    const bus = createLocalTaskEvents();
    const watchers = createTaskWatchers(store, bus);
    await store.create(record('t1', 'alice'));
    const seen = collector();
    const watch = await watchers.watch('alice', ['t1', 't1'], seen.listener);
    expect(watch.taskIds).toEqual(['t1']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.views.map((view) => view['status'])).toEqual(['working']);
    // A change of message only is no status change.
    await store.update('t1', (current) => ({ ...current, statusMessage: 'reading', lastUpdatedAtMs: Date.now() }));
    bus.publish('t1');
    await store.update('t1', (current) => ({ ...current, status: 'completed', lastUpdatedAtMs: Date.now() + 1 }));
    bus.publish('t1');
    await seen.end;
    expect(seen.views.map((view) => view['status'])).toEqual(['working', 'completed']);
    expect(watchers.open).toBe(0);
  });

  it("cover nothing of another principal's task, and end at once", async () => {
    const store = createMemoryTaskStore();
    const watchers = createTaskWatchers(store, createLocalTaskEvents());
    await store.create(record('t2', 'alice'));
    const seen = collector();
    const watch = await watchers.watch('bob', ['t2'], seen.listener);
    expect(watch.taskIds).toEqual([]);
    await seen.end;
    expect(seen.views).toEqual([]);
  });

  it('end when the last covered task expires', async () => {
    const store = createMemoryTaskStore();
    const watchers = createTaskWatchers(store, createLocalTaskEvents());
    await store.create(record('t3', 'alice', 50));
    const seen = collector();
    await watchers.watch('alice', ['t3'], seen.listener);
    await seen.end;
    expect(watchers.open).toBe(0);
  });
});
