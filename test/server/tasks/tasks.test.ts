/**
 * The tasks extension (SEP-2663) over the in-process HTTP front: a summarize_repo task through every state, owners,
 * updates that do not apply, cancellation, failure, and the -32021 of a tool that runs only as a task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTaskService, type TaskService } from '../../../src/server/tasks/taskService.js';
import { createLocalTaskQueue } from '../../../src/server/tasks/taskQueue.js';
import { createMemoryTaskStore } from '../../../src/server/tasks/taskStore.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/taskRecord.js';
import { silentLogger } from '../../../src/logger.js';
import { makeSampleRepo, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { mcpRequest, meta } from '../../helpers/rawChannel.js';
import { createTestFront } from '../../helpers/servers.js';
import type { HttpFront } from '../../../src/transports/http.js';

const TASK_CAPS = { sampling: {}, extensions: { [TASKS_EXTENSION]: {} } };
const answer = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'scripted' });

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

let nextId = 1;
async function rpc(
  front: HttpFront,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; token?: string } = {},
): Promise<Record<string, any>> {
  const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
  const response = await front.fetch(
    mcpRequest(
      'http://localhost/mcp',
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(options.capabilities ?? TASK_CAPS) } },
      {
        ...(taskId !== undefined && { 'mcp-name': taskId }),
        ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      },
    ),
  );
  return (await response.json()) as Record<string, any>;
}

function taskFront(tokens?: Map<string, string>): { front: HttpFront; tasks: TaskService } {
  const tasks = createTaskService({
    store: createMemoryTaskStore(),
    queue: createLocalTaskQueue(),
    logger: silentLogger,
    pollIntervalMs: 50,
  });
  const front = createTestFront({ root: repo.root, model: 'host', tasks, ...(tokens !== undefined && { tokens }) });
  return { front, tasks };
}

/** Polls tasks/get until the task leaves `working` (bounded). */
async function settled(front: HttpFront, taskId: string, token?: string): Promise<Record<string, any>> {
  for (let i = 0; i < 500; i++) {
    const reply = await rpc(front, 'tasks/get', { taskId }, token === undefined ? {} : { token });
    if (reply['result']?.status !== 'working') return reply;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('task still working after 500 polls');
}

describe('tasks extension', () => {
  it('is advertised in server/discover', async () => {
    const { front, tasks } = taskFront();
    const reply = await rpc(front, 'server/discover', {});
    expect(reply['result'].capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    await front.close();
    await tasks.close();
  });

  it('runs summarize_repo as a task: working, input_required twice, completed', async () => {
    const { front, tasks } = taskFront();
    const created = await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 2 } });
    const task = created['result'];
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number) });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(task.pollIntervalMs).toBe(50);

    const first = (await settled(front, task.taskId))['result'];
    expect(first).toMatchObject({ resultType: 'complete', status: 'input_required' });
    expect(Object.keys(first.inputRequests)).toEqual(['pick_files']);
    expect(first.inputRequests['pick_files'].method).toBe('sampling/createMessage');
    // The client never sees the tool's sealed state.
    expect(JSON.stringify(first)).not.toContain('requestState');

    expect(
      (
        await rpc(front, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: {
            pick_files: answer('["README.md","package.json"]'),
          },
        })
      )['result'],
    ).toMatchObject({ resultType: 'complete' });
    const second = (await settled(front, task.taskId))['result'];
    expect(second.status).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['summary']);

    await rpc(front, 'tasks/update', { taskId: task.taskId, inputResponses: { summary: answer('A widget.') } });
    const done = (await settled(front, task.taskId))['result'];
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent.summary).toContain('A widget.');
    expect(done.result.structuredContent.picked).toEqual(['README.md', 'package.json']);
    await front.close();
    await tasks.close();
  });

  it('runs a call as usual when the request did not declare the extension', async () => {
    const { front, tasks } = taskFront();
    const reply = await rpc(
      front,
      'tools/call',
      { name: 'summarize_repo', arguments: {} },
      {
        capabilities: { sampling: {} },
      },
    );
    expect(reply['result'].resultType).toBe('input_required');
    expect(await tasks.counts()).toMatchObject({ working: 0, input_required: 0 });
    await front.close();
    await tasks.close();
  });

  it('answers another principal as if the task did not exist', async () => {
    const tokens = new Map([
      ['token-alice', 'alice'],
      ['token-bob', 'bob'],
    ]);
    const { front, tasks } = taskFront(tokens);
    const created = await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} }, { token: 'token-alice' });
    const taskId = created['result'].taskId as string;
    await settled(front, taskId, 'token-alice');
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const foreign = await rpc(front, method, { taskId }, { token: 'token-bob' });
      expect(foreign['error']).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown task') });
    }
    const update = await rpc(
      front,
      'tasks/update',
      { taskId, inputResponses: { pick_files: answer('[]') } },
      {
        token: 'token-bob',
      },
    );
    expect(update['error'].code).toBe(-32602);
    // Nothing bob sent changed alice's task.
    expect((await rpc(front, 'tasks/get', { taskId }, { token: 'token-alice' }))['result'].status).toBe(
      'input_required',
    );
    const unknown = await rpc(front, 'tasks/get', { taskId: 'no-such-task' }, { token: 'token-alice' });
    expect(unknown['error'].code).toBe(-32602);
    await front.close();
    await tasks.close();
  });

  it('ignores answers to keys that are not outstanding, and updates of a finished task', async () => {
    const { front, tasks } = taskFront();
    const taskId = (await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} }))['result'].taskId;
    await settled(front, taskId);
    const ignored = await rpc(front, 'tasks/update', {
      taskId,
      inputResponses: { summary: answer('too early'), 'pick_files#2': answer('[]'), __proto__x: answer('[]') },
    });
    expect(ignored['result']).toMatchObject({ resultType: 'complete' });
    const still = (await rpc(front, 'tasks/get', { taskId }))['result'];
    expect(still.status).toBe('input_required');
    expect(Object.keys(still.inputRequests)).toEqual(['pick_files']);

    await rpc(front, 'tasks/cancel', { taskId });
    expect((await rpc(front, 'tasks/get', { taskId }))['result'].status).toBe('cancelled');
    const late = await rpc(front, 'tasks/update', { taskId, inputResponses: { pick_files: answer('[]') } });
    expect(late['result']).toMatchObject({ resultType: 'complete' });
    expect((await rpc(front, 'tasks/get', { taskId }))['result'].status).toBe('cancelled');
    await front.close();
    await tasks.close();
  });

  it('fails a task with the JSON-RPC error its tool raised', async () => {
    const { front, tasks } = taskFront();
    const taskId = (await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} }))['result'].taskId;
    await settled(front, taskId);
    // An answer that is not a sampling result: the flow's -32602.
    await rpc(front, 'tasks/update', { taskId, inputResponses: { pick_files: { nonsense: true } } });
    const failed = (await settled(front, taskId))['result'];
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe(-32602);
    expect(failed.result).toBeUndefined();
    await front.close();
    await tasks.close();
  });

  it('runs a call as an ordinary one when its principal holds its cap of unfinished tasks', async () => {
    const tasks = createTaskService({
      store: createMemoryTaskStore({ maxOpenPerPrincipal: 2, maxRetainedPerPrincipal: 4 }),
      queue: createLocalTaskQueue(),
      logger: silentLogger,
    });
    const front = createTestFront({ root: repo.root, model: 'host', tasks });
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: {} }));
    expect(replies.slice(0, 2).map((reply) => reply['result'].resultType)).toEqual(['task', 'task']);
    // Past the cap the store does not grow: the call is answered as it would be without the extension.
    expect(replies[2]?.['result'].resultType).toBe('input_required');
    for (const reply of replies.slice(0, 2)) await settled(front, reply['result'].taskId);
    expect(await tasks.counts()).toMatchObject({ working: 0, input_required: 2 });
    await front.close();
    await tasks.close();
  });
});

describe('task input keys', () => {
  it("keep the tool's own key while it is new to the task, and never issue a key twice", async () => {
    const { taskInputKeys } = await import('../../../src/server/tasks/taskRecord.js');
    expect(taskInputKeys(['pick_files'], [])).toEqual({ pick_files: 'pick_files' });
    expect(taskInputKeys(['explore', 'summary'], ['explore', 'explore#2'])).toEqual({
      'explore#3': 'explore',
      summary: 'summary',
    });
  });
});

describe('a burst of tasks', () => {
  it('1,000 calls at once: each a task that completes, an ordinary result past the cap, or a busy answer; the store stays bounded', async () => {
    const store = createMemoryTaskStore({ maxOpenPerPrincipal: 32, maxRetainedPerPrincipal: 256 });
    const tasks = createTaskService({ store, queue: createLocalTaskQueue(), logger: silentLogger, pollIntervalMs: 20 });
    const front = createTestFront({ root: repo.root, model: 'builtin', tasks });
    try {
      const replies = await Promise.all(
        Array.from({ length: 1000 }, async (_, index) => {
          const response = await front.fetch(
            mcpRequest('http://localhost/mcp', {
              jsonrpc: '2.0',
              id: `burst-${index}`,
              method: 'tools/call',
              params: { name: 'summarize_repo', arguments: {}, _meta: meta(TASK_CAPS) },
            }),
          );
          return { status: response.status, body: response.status === 200 ? await response.json() : undefined };
        }),
      );
      const created = replies.flatMap((reply) =>
        reply.body?.result?.resultType === 'task' ? [reply.body.result] : [],
      );
      const overCap = replies.filter((reply) => reply.body?.result?.resultType === 'complete');
      const busy = replies.filter((reply) => reply.status === 503 || reply.status === 429);
      expect(created.length + overCap.length + busy.length).toBe(1000);
      expect(created.length).toBeGreaterThan(0);
      for (const task of created) {
        const done = (await settled(front, task.taskId))['result'];
        expect(done.status).toBe('completed');
      }
      const counts = await tasks.counts();
      const kept = Object.values(counts).reduce((sum, n) => sum + n, 0);
      expect(kept).toBeLessThanOrEqual(256);
    } finally {
      await front.close();
      await tasks.close();
    }
  });
});
