/**
 * Tasks on Redis and BullMQ, with a real redis-server: a task created on one instance is read, answered and
 * finished through another; and a task whose instance is killed with SIGKILL mid-run is resumed by the other
 * (BullMQ's stalled-job check) from its record, without asking its model question again.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { nginxConfig } from '../../../scripts/fleet/nginxConfig.js';
import { accepts, freePort, startProcess, type Started } from '../../../scripts/fleet/processes.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/taskRecord.js';
import { meta, VERSION_2026 } from '../../helpers/rawChannel.js';
import { missingBinaries, startRedis, type TestRedis } from '../../helpers/redis.js';

// Relative to the repository root, where vitest runs.
const FIXTURE = path.resolve('test/fixtures/taskInstanceMain.mjs');
const CAPS = { sampling: {}, extensions: { [TASKS_EXTENSION]: {} } };
const skip = missingBinaries('redis-server', 'nginx').length > 0;

interface Instance {
  port: number;
  pid: number | undefined;
  kill(): Promise<void>;
}

/** One instance as a process of its own (test/fixtures/taskInstanceMain.mjs on dist/). */
async function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, REDIS_URL: redis.url, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`task instance exited (${code})`)));
  });
  return {
    port: Number(line.split(' ')[1]),
    pid: child.pid,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

let redis: TestRedis;
beforeAll(async () => {
  if (!skip) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let nextId = 1;
async function rpc(port: number, method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  return (await (await open(port, method, params)).json()) as Record<string, any>;
}

async function open(port: number, method: string, params: Record<string, unknown>): Promise<Response> {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta(CAPS) } };
  const name = (params['taskId'] ?? params['name']) as string | undefined;
  return fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION_2026,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify(body),
  });
}

async function waitForStatus(port: number, taskId: string, status: string): Promise<Record<string, any>> {
  for (let i = 0; i < 300; i++) {
    // Through nginx a request that reached the killed instance is a 502 (not JSON): poll again.
    const task = (await rpc(port, 'tasks/get', { taskId }).catch(() => ({}) as Record<string, any>))['result'];
    if (task?.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

const answer = { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'scripted' };

describe.skipIf(skip)('tasks across a fleet on Redis', () => {
  it('is created on one instance and read, answered and finished through another', async () => {
    const a = await startInstance();
    const b = await startInstance();
    try {
      const created = (await rpc(a.port, 'tools/call', { name: 'ask_once', arguments: { topic: 'x' } }))['result'];
      expect(created.resultType).toBe('task');
      // Durable before the answer: the other instance finds it at once.
      const seen = (await rpc(b.port, 'tasks/get', { taskId: created.taskId }))['result'];
      expect(seen.taskId).toBe(created.taskId);
      const asking = await waitForStatus(b.port, created.taskId, 'input_required');
      expect(Object.keys(asking.inputRequests)).toEqual(['q1']);
      await rpc(b.port, 'tasks/update', { taskId: created.taskId, inputResponses: { q1: answer } });
      const done = await waitForStatus(a.port, created.taskId, 'completed');
      expect(done.result.content[0].text).toBe('answered: forty-two');
    } finally {
      await a.kill();
      await b.kill();
    }
  });

  it('tells a client listening on one instance of each status change, wherever the task runs (Redis pub/sub)', async () => {
    const a = await startInstance();
    const b = await startInstance();
    try {
      const created = (await rpc(a.port, 'tools/call', { name: 'ask_once', arguments: { topic: 'z' } }))['result'];
      await waitForStatus(a.port, created.taskId, 'input_required');
      const listening = await open(b.port, 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } });
      const stream = listening.body?.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const until = async (needle: string): Promise<void> => {
        while (!text.includes(needle)) {
          const chunk = await stream?.read();
          if (chunk === undefined || chunk.done) throw new Error(`the stream ended before ${needle}: ${text}`);
          text += chunk.value;
        }
      };
      await until('"status":"input_required"');
      // Answered through A; the run may be taken by either instance: B hears of it over Redis.
      await rpc(a.port, 'tasks/update', { taskId: created.taskId, inputResponses: { q1: answer } });
      await until('"resultType":"complete"');
      const messages = text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);
      const statuses = messages.filter((m) => m['method'] === 'notifications/tasks').map((m) => m['params'].status);
      // `working` comes between unless the run finished before B read the task: each change is read when heard.
      expect(statuses.filter((status) => status !== 'working')).toEqual(['input_required', 'completed']);
      expect(messages.at(-2)?.['params'].result.content[0].text).toBe('answered: forty-two');
    } finally {
      await a.kill();
      await b.kill();
    }
  });

  it('behind nginx: the instance running a task is killed with SIGKILL; the other resumes it, asking nothing twice', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mmi-task-kill-'));
    const marker = path.join(dir, 'hanging');
    const balancerPort = await freePort();
    const env = { HANG: '1', MARKER: marker, ALLOW_HOST: `127.0.0.1:${balancerPort}` };
    const instances = [await startInstance(env), await startInstance(env)];
    let nginx: Started | undefined;
    try {
      const confFile = path.join(dir, 'nginx.conf');
      await writeFile(
        confFile,
        nginxConfig({
          dir,
          listenPort: balancerPort,
          instances: instances.map((instance) => `127.0.0.1:${instance.port}`),
          runAsRoot: process.getuid?.() === 0,
        }),
      );
      nginx = await startProcess('nginx', 'nginx', ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', confFile], () =>
        accepts(balancerPort),
      );
      const created = (await rpc(balancerPort, 'tools/call', { name: 'ask_once', arguments: { topic: 'y' } }))[
        'result'
      ];
      const asking = await waitForStatus(balancerPort, created.taskId, 'input_required');
      const questions = Object.keys(asking.inputRequests);
      await rpc(balancerPort, 'tasks/update', { taskId: created.taskId, inputResponses: { q1: answer } });
      // Whichever instance took the second run hangs in it and names itself: kill that one.
      let pid: number | undefined;
      for (let i = 0; i < 300 && pid === undefined; i++) {
        const text = await readFile(marker, 'utf8').catch(() => undefined);
        if (text !== undefined && text !== '') pid = Number(text);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const running = instances.find((instance) => instance.pid === pid);
      expect(running).toBeDefined();
      await running?.kill();

      const done = await waitForStatus(balancerPort, created.taskId, 'completed');
      expect(done.result.content[0].text).toBe('answered: forty-two');
      // One question over the task's whole life: the resumed run took the answer from the record.
      expect(questions).toEqual(['q1']);
    } finally {
      await nginx?.stop();
      for (const instance of instances) await instance.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
