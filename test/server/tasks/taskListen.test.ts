/**
 * `notifications/tasks` on a `subscriptions/listen` stream (SEP-2663), over the in-process HTTP front: a listening
 * client hears its own task's status changes, never another principal's, and the stream ends with the listen result
 * once its tasks have finished or the server drains; a client that did not listen hears nothing; listeners are capped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTaskService, type TaskService } from '../../../src/server/tasks/taskService.js';
import { createLocalTaskQueue } from '../../../src/server/tasks/taskQueue.js';
import { createMemoryTaskStore } from '../../../src/server/tasks/taskStore.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/taskRecord.js';
import { silentLogger } from '../../../src/logger.js';
import type { HttpFront } from '../../../src/transports/http.js';
import { makeSampleRepo, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { mcpRequest, meta } from '../../helpers/rawChannel.js';
import { createTestFront } from '../../helpers/servers.js';

const TASK_CAPS = { sampling: {}, extensions: { [TASKS_EXTENSION]: {} } };
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const TOKENS = new Map([
  ['token-alice', 'alice'],
  ['token-bob', 'bob'],
]);

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

let nextId = 1;
function post(front: HttpFront, method: string, params: Record<string, unknown>, token: string, caps = TASK_CAPS) {
  const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
  return front.fetch(
    mcpRequest(
      'http://localhost/mcp',
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(caps) } },
      { authorization: `Bearer ${token}`, ...(taskId !== undefined && { 'mcp-name': taskId }) },
    ),
  );
}

async function rpc(front: HttpFront, method: string, params: Record<string, unknown>, token: string) {
  return (await (await post(front, method, params, token)).json()) as Record<string, any>;
}

/** Every JSON-RPC message of an SSE answer, read to its end (the server ends each stream these tests open). */
async function messages(response: Response): Promise<Array<Record<string, any>>> {
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .flatMap((frame) => frame.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, any>);
}

/** Reads an SSE answer one JSON-RPC message at a time. */
function sseReader(response: Response): { next(): Promise<Record<string, any> | undefined> } {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (data !== undefined) return JSON.parse(data.slice('data: '.length)) as Record<string, any>;
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

function taskFront(): { front: HttpFront; tasks: TaskService } {
  const tasks = createTaskService({
    store: createMemoryTaskStore(),
    queue: createLocalTaskQueue(),
    logger: silentLogger,
    pollIntervalMs: 50,
    watchLimits: { maxPerPrincipal: 2, maxTotal: 16, maxTaskIds: 8 },
  });
  return { front: createTestFront({ root: repo.root, model: 'host', tasks, tokens: TOKENS }), tasks };
}

async function startTask(front: HttpFront, token: string): Promise<string> {
  const created = await rpc(front, 'tools/call', { name: 'summarize_repo', arguments: { maxFiles: 2 } }, token);
  expect(created['result']?.resultType).toBe('task');
  return created['result'].taskId as string;
}

async function waitForStatus(front: HttpFront, taskId: string, token: string, status: string) {
  for (let i = 0; i < 500; i++) {
    const reply = await rpc(front, 'tasks/get', { taskId }, token);
    if (reply['result']?.status === status) return reply['result'];
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task never reached ${status}`);
}

describe('notifications/tasks', () => {
  it('reach a client that listens for its own task: each status, then the listen result', async () => {
    const { front, tasks } = taskFront();
    const taskId = await startTask(front, 'token-alice');
    await waitForStatus(front, taskId, 'token-alice', 'input_required');
    const listening = await post(
      front,
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      'token-alice',
    );
    expect(listening.status).toBe(200);
    const listenId = nextId - 1;
    const reader = sseReader(listening);
    const stream = [await reader.next(), await reader.next()];
    // The task ends while the stream is open: its change must come on the stream, and then the stream ends.
    await rpc(front, 'tasks/cancel', { taskId }, 'token-alice');
    for (let message = await reader.next(); message !== undefined; message = await reader.next()) stream.push(message);

    expect(stream[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION]: listenId }, notifications: { taskIds: [taskId] } },
    });
    const notes = stream.filter((message) => message?.['method'] === 'notifications/tasks') as Array<
      Record<string, any>
    >;
    expect(notes.map((note) => note['params'].status)).toEqual(['input_required', 'cancelled']);
    for (const note of notes) {
      expect(note['params'].taskId).toBe(taskId);
      expect(note['params']._meta).toEqual({ [SUBSCRIPTION]: listenId });
    }
    expect(Object.keys(notes[0]?.['params'].inputRequests)).toEqual(['pick_files']);
    // The last status is what tasks/get answers.
    const { resultType: _complete, ...view } = await waitForStatus(front, taskId, 'token-alice', 'cancelled');
    expect(notes[1]?.['params']).toEqual({ ...view, _meta: { [SUBSCRIPTION]: listenId } });
    expect(stream.at(-1)).toMatchObject({ id: listenId, result: { resultType: 'complete' } });
    expect(stream.at(-1)?.['result']._meta[SUBSCRIPTION]).toBe(listenId);
    await front.close();
    await tasks.close();
  });

  it("never carry another principal's task: its id is left out of the acknowledgement", async () => {
    const { front, tasks } = taskFront();
    const alices = await startTask(front, 'token-alice');
    const bobs = await startTask(front, 'token-bob');
    await waitForStatus(front, alices, 'token-alice', 'input_required');
    await waitForStatus(front, bobs, 'token-bob', 'input_required');
    const listening = await post(
      front,
      'subscriptions/listen',
      { notifications: { taskIds: [alices, bobs, 'no-such-task'] } },
      'token-bob',
    );
    const reader = sseReader(listening);
    const stream = [await reader.next(), await reader.next()] as Array<Record<string, any>>;
    await rpc(front, 'tasks/cancel', { taskId: alices }, 'token-alice');
    await waitForStatus(front, alices, 'token-alice', 'cancelled');
    await rpc(front, 'tasks/cancel', { taskId: bobs }, 'token-bob');
    for (let message = await reader.next(); message !== undefined; message = await reader.next()) stream.push(message);

    expect(stream[0]?.['params'].notifications).toEqual({ taskIds: [bobs] });
    const notes = stream.filter((message) => message['method'] === 'notifications/tasks');
    expect(notes.map((note) => note['params'].status)).toEqual(['input_required', 'cancelled']);
    expect(notes.every((note) => note['params'].taskId === bobs)).toBe(true);
    expect(JSON.stringify(stream)).not.toContain(alices);

    // Only someone else's: acknowledged with no ids, and the stream ends at once.
    const foreign = await messages(
      await post(front, 'subscriptions/listen', { notifications: { taskIds: [bobs] } }, 'token-alice'),
    );
    expect(foreign.map((message) => message['method'] ?? 'result')).toEqual([
      'notifications/subscriptions/acknowledged',
      'result',
    ]);
    expect(foreign[0]?.['params'].notifications).toEqual({ taskIds: [] });
    await front.close();
    await tasks.close();
  });

  it('go to no client that did not listen, nor one that listened without naming tasks', async () => {
    const { front, tasks } = taskFront();
    const created = await post(front, 'tools/call', { name: 'summarize_repo', arguments: {} }, 'token-alice');
    const createdText = await created.text();
    const taskId = (JSON.parse(createdText.replace(/^[\s\S]*?data: /, '').split('\n')[0] ?? createdText) as any).result
      .taskId as string;
    await waitForStatus(front, taskId, 'token-alice', 'input_required');
    const poll = await post(front, 'tasks/get', { taskId }, 'token-alice');
    const cancel = await post(front, 'tasks/cancel', { taskId }, 'token-alice');
    for (const text of [createdText, await poll.text(), await cancel.text()]) {
      expect(text).not.toContain('notifications/tasks');
    }
    // A listen request naming no tasks is the SDK's: this server honours none of its other notifications.
    const other = await messages(
      await post(front, 'subscriptions/listen', { notifications: { toolsListChanged: true } }, 'token-alice'),
    );
    expect(other[0]?.['params'].notifications).toEqual({});
    expect(JSON.stringify(other)).not.toContain('notifications/tasks');
    await front.close();
    await tasks.close();
  });

  it('need the tasks extension declared (-32021) and well-formed task ids (-32602)', async () => {
    const { front, tasks } = taskFront();
    const taskId = await startTask(front, 'token-alice');
    const undeclared = await post(
      front,
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      'token-alice',
      { sampling: {} } as typeof TASK_CAPS,
    );
    const refusal = (await undeclared.json()) as Record<string, any>;
    expect(refusal['error']).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    const malformed = await rpc(front, 'subscriptions/listen', { notifications: { taskIds: taskId } }, 'token-alice');
    expect(malformed['error'].code).toBe(-32602);
    await rpc(front, 'tasks/cancel', { taskId }, 'token-alice');
    await front.close();
    await tasks.close();
  });

  it('are capped per principal (429), and every open stream ends with its listen result on drain', async () => {
    const { front, tasks } = taskFront();
    const taskId = await startTask(front, 'token-alice');
    const listen = () => post(front, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, 'token-alice');
    const open = [await listen(), await listen()];
    const refused = await listen();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(((await refused.json()) as Record<string, any>)['error']).toMatchObject({ code: -32603 });
    // Another principal's cap is its own.
    const bobs = await startTask(front, 'token-bob');
    const bobListens = await post(front, 'subscriptions/listen', { notifications: { taskIds: [bobs] } }, 'token-bob');
    expect(bobListens.status).toBe(200);
    expect(tasks.watchers.open).toBe(3);

    front.drain();
    for (const response of [...open, bobListens]) {
      const stream = await messages(response);
      expect(stream.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
    }
    expect(tasks.watchers.open).toBe(0);
    await front.close();
    await tasks.close();
  });
});
