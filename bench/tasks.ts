/**
 * A task against a plain call (`npm run bench -- --only tasks`): summarize_repo on the built-in model, in-process
 * HTTP front, server time only — for the task, the tools/call that creates it plus every tasks/get until it is
 * completed (polled back to back, so no poll interval is counted), against one plain tools/call. Medians of
 * interleaved pairs, as a ratio.
 */
import { performance } from 'node:perf_hooks';

import { silentLogger } from '../src/logger.js';
import { TASKS_EXTENSION } from '../src/server/tasks/taskRecord.js';
import { createLocalTaskQueue } from '../src/server/tasks/taskQueue.js';
import { createTaskService } from '../src/server/tasks/taskService.js';
import { createMemoryTaskStore } from '../src/server/tasks/taskStore.js';
import { makeSampleRepo } from '../test/helpers/fixtureRepo.js';
import { mcpRequest, meta } from '../test/helpers/rawChannel.js';
import { createTestFront } from '../test/helpers/servers.js';
import { benchCommand, record } from './figures.js';

const PAIRS = Number(process.env['BENCH_TASK_PAIRS'] ?? 200);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchTasks(): Promise<void> {
  const repo = await makeSampleRepo();
  const tasks = createTaskService({
    store: createMemoryTaskStore({ maxOpenPerPrincipal: 10_000, maxRetainedPerPrincipal: 100_000 }),
    queue: createLocalTaskQueue(),
    logger: silentLogger,
  });
  const front = createTestFront({ root: repo.root, model: 'builtin', tasks });
  let id = 0;
  const timed = async (method: string, params: Record<string, unknown>, capabilities: object) => {
    const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
    const request = mcpRequest(
      'http://localhost/mcp',
      { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta(capabilities as Record<string, unknown>) } },
      taskId === undefined ? {} : { 'mcp-name': taskId },
    );
    const start = performance.now();
    const body = (await (await front.fetch(request)).json()) as { result: Record<string, any> };
    return { ms: performance.now() - start, result: body.result };
  };
  const plainCall = async (): Promise<number> =>
    (await timed('tools/call', { name: 'summarize_repo', arguments: {} }, {})).ms;
  const taskCall = async (): Promise<{ ms: number; polls: number }> => {
    const caps = { extensions: { [TASKS_EXTENSION]: {} } };
    const created = await timed('tools/call', { name: 'summarize_repo', arguments: {} }, caps);
    let ms = created.ms;
    let polls = 0;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const got = await timed('tasks/get', { taskId: created.result['taskId'] }, caps);
      ms += got.ms;
      polls++;
      if (got.result['status'] === 'completed') return { ms, polls };
      if (got.result['status'] !== 'working') throw new Error(`task ended ${String(got.result['status'])}`);
    }
  };
  for (let i = 0; i < 20; i++) {
    await plainCall();
    await taskCall();
  }
  const plain: number[] = [];
  const task: number[] = [];
  const polls: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    plain.push(await plainCall());
    const t = await taskCall();
    task.push(t.ms);
    polls.push(t.polls);
  }
  const a = median(task);
  const b = median(plain);
  console.log(
    `\nA task against a plain call (summarize_repo, built-in model), server time, median of ${PAIRS} pairs (ms)`,
  );
  console.log('| call | task (create + polls until completed) | plain tools/call | ratio | polls (median) |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| summarize_repo | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(2)}x | ${median(polls)} |`);
  record({
    part: 'tasks',
    name: 'summarize_repo as a task (create + polls until completed), server time',
    against: 'one plain `tools/call`',
    value: a,
    baseline: b,
    unit: 'ms',
    command: benchCommand('tasks'),
    meaning: `What running a call as a task adds in server time (median ${median(polls)} polls, sent back to back).`,
  });
  await front.close();
  await tasks.close();
  await repo.cleanup();
}
