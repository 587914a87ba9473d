/**
 * The host runtime and a server that makes calls tasks (SEP-2663): the call is polled, each input round goes
 * through the same approval and audit as an MRTR round, the result is the task's; the caller's signal sends
 * tasks/cancel; `tasks: false` calls without the extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createHost } from '../../src/host/createHost.js';
import { isHostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import type { Approver } from '../../src/host/types.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { silentLogger } from '../../src/logger.js';
import { createLocalTaskQueue } from '../../src/server/tasks/taskQueue.js';
import { createTaskService } from '../../src/server/tasks/taskService.js';
import { createMemoryTaskStore } from '../../src/server/tasks/taskStore.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { createTestFront } from '../helpers/servers.js';
import { capturedAuditLog, recordingApprover } from './hostFixtures.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function taskServer() {
  const tasks = createTaskService({
    store: createMemoryTaskStore(),
    queue: createLocalTaskQueue(),
    logger: silentLogger,
    pollIntervalMs: 20,
  });
  const front = createTestFront({ root: repo.root, tasks });
  return { tasks, front };
}

function host(approver: Approver, audit?: Parameters<typeof createHost>[0] extends infer O ? O : never) {
  return createHost({
    models: [{ id: 'builtin', model: createBuiltinModel(), ...TIER_ATTRIBUTES.balanced }],
    approver,
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    ...audit,
  });
}

describe('createHost and tasks', () => {
  it('declares the extension, polls the task, answers its rounds through approval and audit', async () => {
    const { tasks, front } = taskServer();
    const approver = recordingApprover();
    const captured = await capturedAuditLog();
    const statuses: string[] = [];
    const connection = await host(approver, { audit: captured.audit }).connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    try {
      const outcome = await connection.callTool('summarize_repo', {}, { onTask: (task) => statuses.push(task.status) });
      expect(outcome.result.isError).not.toBe(true);
      expect(outcome.rounds).toBe(2);
      expect((outcome.result.structuredContent as { files: unknown[] }).files.length).toBeGreaterThan(0);
      expect(approver.rounds.map((round) => round.requests.map((request) => request.key))).toEqual([
        ['pick_files'],
        ['summary'],
      ]);
      expect(statuses[0]).toBe('working');
      expect(statuses).toContain('input_required');
      expect(statuses.at(-1)).toBe('completed');
    } finally {
      await connection.close();
      await captured.audit.close();
      await front.close();
      await tasks.close();
    }
    expect(captured.lines().map((line) => line['decision'])).toEqual([
      'approved',
      'fulfilled',
      'approved',
      'fulfilled',
    ]);
  });

  it('sends tasks/cancel when the caller aborts, and stops with `cancelled`', async () => {
    const { tasks, front } = taskServer();
    const controller = new AbortController();
    // The approver aborts the call instead of answering: the task is waiting for input at that moment.
    const approver: Approver = {
      review: async () => {
        controller.abort();
        return { kind: 'approve' };
      },
    };
    const connection = await host(approver).connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    let taskId: string | undefined;
    try {
      const error = await connection
        .callTool(
          'summarize_repo',
          {},
          {
            signal: controller.signal,
            onTask: () => undefined,
          },
        )
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(isHostError(error) && error.code).toBe('cancelled');
      const counts = await tasks.counts();
      // The refused round cancelled the task on the server.
      expect(counts.cancelled).toBe(1);
      expect(counts.input_required + counts.working).toBe(0);
      taskId = 'seen';
    } finally {
      await connection.close();
      await front.close();
      await tasks.close();
    }
    expect(taskId).toBe('seen');
  });

  it('calls without the extension when tasks are turned off: plain MRTR rounds', async () => {
    const { tasks, front } = taskServer();
    const approver = recordingApprover();
    const connection = await createHost({
      models: [{ id: 'builtin', model: createBuiltinModel(), ...TIER_ATTRIBUTES.balanced }],
      approver,
      rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
      tasks: false,
    }).connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    try {
      const outcome = await connection.callTool('summarize_repo', {});
      expect(outcome.rounds).toBe(2);
      expect(approver.rounds.map((round) => round.requests.map((request) => request.key))).toEqual([
        ['pick_files'],
        ['summary'],
      ]);
      expect(await tasks.counts()).toMatchObject({ working: 0, completed: 0 });
    } finally {
      await connection.close();
      await front.close();
      await tasks.close();
    }
  });
});
