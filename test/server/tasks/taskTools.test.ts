/**
 * Tasks of tools written for the test: a tool that only runs as a task (-32021 without the extension), progress
 * seen in tasks/get, cooperative cancellation (the tool's signal fires; the task ends cancelled), a round of two
 * questions answered one at a time, and the `tasks/*` methods refused to a request without the extension.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { inputRequired } from '@modelcontextprotocol/server';

import { defineTool } from '../../../src/flows/tool.js';
import { askForInput, askWithoutState, openRound, type SealedRound } from '../../../src/flows/inputRounds.js';
import { createEphemeralKeyRing, createStateCodec } from '../../../src/state/index.js';
import { createMemoryStore } from '../../../src/state/stores/memoryStore.js';
import { silentLogger, type Logger } from '../../../src/logger.js';
import { createServerFactory } from '../../../src/server/createServer.js';
import { ANONYMOUS } from '../../../src/server/principals.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/taskRecord.js';
import { createLocalTaskQueue } from '../../../src/server/tasks/taskQueue.js';
import { createTaskService } from '../../../src/server/tasks/taskService.js';
import { createMemoryTaskStore } from '../../../src/server/tasks/taskStore.js';
import { createHttpFront, type HttpFront } from '../../../src/transports/http.js';
import { mcpRequest, meta } from '../../helpers/rawChannel.js';

const TASK_CAPS = { extensions: { [TASKS_EXTENSION]: {} } };

/** A tool that reports progress, then waits until released or cancelled (`throws`: then throws the AbortError). */
function waitingTool(log: string[], release: Promise<void>, throws = false) {
  return defineTool({
    name: 'long_work',
    title: 'Long work',
    description: 'Waits.',
    inputSchema: z.object({}),
    task: 'always',
    async run(_args, ctx) {
      log.push('started');
      await ctx.progress(1, 3, 'step one of three');
      const aborted = new Promise<'aborted'>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true }),
      );
      const outcome = await Promise.race([release.then(() => 'released' as const), aborted]);
      log.push(outcome);
      if (throws && outcome === 'aborted') ctx.signal.throwIfAborted();
      return { content: [{ type: 'text', text: outcome }] };
    },
  });
}

function front(
  tool: ReturnType<typeof waitingTool>,
  logger: Logger = silentLogger,
): { http: HttpFront; close(): Promise<void> } {
  const tasks = createTaskService({
    store: createMemoryTaskStore(),
    queue: createLocalTaskQueue(),
    logger,
    pollIntervalMs: 20,
  });
  const factory = createServerFactory({
    identity: { name: 'test', version: '0.0.0' },
    tools: [tool],
    resolvePrincipal: () => ANONYMOUS,
    tasks,
  });
  const http = createHttpFront({
    factory,
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
  });
  return {
    http,
    close: async () => {
      await http.close();
      await tasks.close();
    },
  };
}

let nextId = 1;
async function rpc(http: HttpFront, method: string, params: Record<string, unknown>, capabilities = TASK_CAPS) {
  const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
  const response = await http.fetch(
    mcpRequest(
      'http://localhost/mcp',
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(capabilities) } },
      taskId === undefined ? {} : { 'mcp-name': taskId },
    ),
  );
  return (await response.json()) as Record<string, any>;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not met after 500 checks');
}

describe('tasks of any tool', () => {
  it('refuses a task-only tool to a request without the extension (-32021 naming it)', async () => {
    const log: string[] = [];
    const server = front(waitingTool(log, new Promise(() => undefined)));
    const reply = await rpc(server.http, 'tools/call', { name: 'long_work', arguments: {} }, {} as typeof TASK_CAPS);
    expect(reply['error'].code).toBe(-32021);
    expect(reply['error'].data.requiredCapabilities).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(log).toEqual([]);
    await server.close();
  });

  it('shows progress in tasks/get and completes', async () => {
    const log: string[] = [];
    let release!: () => void;
    const server = front(waitingTool(log, new Promise<void>((resolve) => (release = resolve))));
    const { taskId } = (await rpc(server.http, 'tools/call', { name: 'long_work', arguments: {} }))['result'];
    await until(
      async () => (await rpc(server.http, 'tasks/get', { taskId }))['result'].statusMessage === 'step one of three',
    );
    release();
    await until(async () => (await rpc(server.http, 'tasks/get', { taskId }))['result'].status === 'completed');
    const done = (await rpc(server.http, 'tasks/get', { taskId }))['result'];
    expect(done.result.content[0].text).toBe('released');
    expect(log).toEqual(['started', 'released']);
    await server.close();
  });

  it.each([
    ['returns when its signal fires', false],
    ['throws its AbortError', true],
  ])(
    'cancels a running task cooperatively (a tool that %s): it ends cancelled, no internal error logged',
    async (_, throws) => {
      const log: string[] = [];
      const lines: string[] = [];
      const logger: Logger = { info: (line) => lines.push(line), warn: (line) => lines.push(line) };
      const server = front(waitingTool(log, new Promise(() => undefined), throws), logger);
      const { taskId } = (await rpc(server.http, 'tools/call', { name: 'long_work', arguments: {} }))['result'];
      await until(async () => log.includes('started'));
      expect((await rpc(server.http, 'tasks/cancel', { taskId }))['result']).toMatchObject({ resultType: 'complete' });
      await until(async () => (await rpc(server.http, 'tasks/get', { taskId }))['result'].status === 'cancelled');
      expect(log).toEqual(['started', 'aborted']);
      const cancelled = (await rpc(server.http, 'tasks/get', { taskId }))['result'];
      expect(cancelled.result).toBeUndefined();
      expect(lines.filter((line) => line.includes('internal error'))).toEqual([]);
      await server.close();
    },
  );

  it('keeps a task waiting until every question of its round is answered, listing only the unanswered ones', async () => {
    const ask = (message: string) =>
      inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: { value: { type: 'string' } } } });
    const server = front(
      defineTool({
        name: 'two_questions',
        title: 'Two questions',
        description: 'Asks two things in one round.',
        inputSchema: z.object({}),
        task: 'always',
        async run(_args, ctx) {
          const answers = ctx.inputResponses ?? {};
          if (answers['first'] === undefined || answers['second'] === undefined) {
            return askWithoutState(ctx, { first: ask('First?'), second: ask('Second?') });
          }
          return { content: [{ type: 'text', text: 'both answered' }] };
        },
      }),
    );
    const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
    const { taskId } = (await rpc(server.http, 'tools/call', { name: 'two_questions', arguments: {} }, caps))['result'];
    await until(
      async () => (await rpc(server.http, 'tasks/get', { taskId }, caps))['result'].status === 'input_required',
    );
    const accept = { action: 'accept', content: { value: 'x' } };
    await rpc(server.http, 'tasks/update', { taskId, inputResponses: { first: accept } }, caps);
    const partial = (await rpc(server.http, 'tasks/get', { taskId }, caps))['result'];
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual(['second']);
    await rpc(server.http, 'tasks/update', { taskId, inputResponses: { second: accept } }, caps);
    await until(async () => (await rpc(server.http, 'tasks/get', { taskId }, caps))['result'].status === 'completed');
    expect((await rpc(server.http, 'tasks/get', { taskId }, caps))['result'].result.content[0].text).toBe(
      'both answered',
    );
    await server.close();
  });

  it('answers tasks/get, tasks/update and tasks/cancel with -32021 to a request without the extension', async () => {
    const server = front(waitingTool([], new Promise(() => undefined)));
    const { taskId } = (await rpc(server.http, 'tools/call', { name: 'long_work', arguments: {} }))['result'];
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const reply = await rpc(server.http, method, params, {} as typeof TASK_CAPS);
      expect(reply['error'].code, method).toBe(-32021);
      expect(reply['error'].data.requiredCapabilities).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    }
    // The task itself is untouched: with the extension, it is still there and running.
    expect((await rpc(server.http, 'tasks/get', { taskId }))['result'].status).toBe('working');
    await server.close();
  });

  it('MRTR, then a task: a taskAfterInput tool asks over a round; the retry that answers becomes a task, once', async () => {
    const rounds = {
      codec: createStateCodec<SealedRound<unknown>>({ keyRing: createEphemeralKeyRing() }),
      logger: silentLogger,
      store: createMemoryStore(),
    };
    const ask = inputRequired.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const server = front(
      defineTool({
        name: 'greet_later',
        title: 'Greet later',
        description: 'Asks a name, then works as a task.',
        inputSchema: z.object({}),
        task: 'always',
        taskAfterInput: true,
        async run(args, ctx) {
          const target = { method: 'tools/call' as const, name: 'greet_later', args };
          const opened = await openRound<{ asked: boolean }>(ctx, target, rounds, () => ({ asked: false }));
          const answer = opened.responses['user_name'] as { content?: { name?: string } } | undefined;
          if (answer === undefined) {
            const asked = askForInput(ctx, target, rounds, { asked: true }, opened.round, { user_name: ask });
            if (asked.kind !== 'asked') throw new Error(asked.message);
            return asked.result;
          }
          return { content: [{ type: 'text', text: `Hello, ${answer.content?.name}` }] };
        },
      }),
    );
    const caps = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
    const first = (await rpc(server.http, 'tools/call', { name: 'greet_later', arguments: {} }, caps))['result'];
    expect(first.resultType).toBe('input_required');
    expect(first.taskId).toBeUndefined();
    const retry = {
      name: 'greet_later',
      arguments: {},
      requestState: first.requestState,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    };
    const created = (await rpc(server.http, 'tools/call', retry, caps))['result'];
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(created.requestState).toBeUndefined();
    const get = async (taskId: string) => (await rpc(server.http, 'tasks/get', { taskId }, caps))['result'];
    await until(async () => (await get(created.taskId)).status === 'completed');
    expect((await get(created.taskId)).result.content[0].text).toBe('Hello, Alice');
    // The same retry again: its state was spent by the first task, so the second task fails with -32602.
    const replayed = (await rpc(server.http, 'tools/call', retry, caps))['result'];
    await until(async () => (await get(replayed.taskId)).status === 'failed');
    expect((await get(replayed.taskId)).error.code).toBe(-32602);
    // Hostile retries: an altered state makes a task that fails the same way, and nothing else runs;
    // a state that is not a string is no task at all, but the ordinary path's -32602.
    const altered = { ...retry, requestState: `${String(first.requestState).slice(0, -6)}AAAAAA` };
    const forged = (await rpc(server.http, 'tools/call', altered, caps))['result'];
    await until(async () => (await get(forged.taskId)).status === 'failed');
    expect((await get(forged.taskId)).error.code).toBe(-32602);
    const malformed = await rpc(server.http, 'tools/call', { ...retry, requestState: { not: 'a string' } }, caps);
    expect(malformed['result']).toBeUndefined();
    expect(malformed['error']?.code).toBe(-32602);
    await server.close();
  });
});
