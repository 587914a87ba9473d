/**
 * A call the server made a task (SEP-2663): poll `tasks/get` at the server's interval; answer each new
 * `input_required` through the same policies as an MRTR round (approval, budgets, round cap, rate limits, audit)
 * and send the answers with `tasks/update`; stop at a terminal status. The caller's signal (Ctrl-C) sends
 * `tasks/cancel` and ends the call.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';

import {
  auditRefusedRound,
  fulfilRound,
  rawInputRequests,
  type CallApproval,
  type RoundPolicies,
} from './fulfilRound.js';
import { HostError } from './hostError.js';
import { TaskRequestError, type ServerTask, type TaskChannel } from './taskChannel.js';
import type { CallPosition, ConnectedServer } from './types.js';

/** Polls no faster than this, whatever the server asks, and no slower than the slowest. */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
/** How long the host follows a task whose server gave no TTL. */
const DEFAULT_FOLLOW_MS = 3_600_000;

export interface TaskDrive {
  name: string;
  task: ServerTask;
  call: {
    signal?: AbortSignal;
    onRound?: (round: number, keys: string[]) => void;
    onTask?: (task: { status: string; statusMessage?: string }) => void;
  };
  policies: RoundPolicies;
  approval: CallApproval;
  checkOutput(result: CallToolResult): void;
  channel: TaskChannel;
  server: ConnectedServer;
  maxRounds: number;
  principal?: string;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function asHostError(error: unknown, name: string, method: string): HostError {
  if (error instanceof HostError) return error;
  if (error instanceof TaskRequestError) {
    return new HostError('protocol_error', `${name}: ${method} failed: ${error.message}`, { rpcCode: error.code });
  }
  return new HostError('protocol_error', `${name}: ${method} failed: ${(error as Error).message ?? String(error)}`);
}

export async function driveTask(drive: TaskDrive): Promise<{
  result: CallToolResult;
  rounds: number;
  usage: { tokens: number; bytes: number };
}> {
  const { name, channel, call } = drive;
  const taskId = drive.task.taskId;
  const signal = call.signal;
  // Read afresh each time: the signal may fire while a round is answered.
  const aborted = (): boolean => signal?.aborted === true;
  const request = async (method: 'tasks/get' | 'tasks/update', params: Record<string, unknown>): Promise<unknown> => {
    try {
      return await channel.request(method, { taskId, ...params });
    } catch (error) {
      throw asHostError(error, name, method);
    }
  };
  const cancel = async (): Promise<void> => {
    await channel.request('tasks/cancel', { taskId }).catch(() => undefined);
  };
  const deadline = Date.now() + (typeof drive.task.ttlMs === 'number' ? drive.task.ttlMs : DEFAULT_FOLLOW_MS);
  const answered = new Set<string>();
  let rounds = 0;
  let current: ServerTask = drive.task;
  for (;;) {
    call.onTask?.({
      status: current.status,
      ...(current.statusMessage !== undefined && { statusMessage: current.statusMessage }),
    });
    if (aborted()) {
      await cancel();
      throw new HostError('cancelled', `${name}: cancelled; tasks/cancel sent for task ${taskId}`);
    }
    switch (current.status) {
      case 'completed': {
        const result = (current.result ?? { content: [] }) as CallToolResult;
        drive.checkOutput(result);
        const { tokens, bytes } = drive.policies.budget.totals();
        return { result, rounds, usage: { tokens, bytes } };
      }
      case 'failed':
        throw new HostError(
          'protocol_error',
          `${name}: the task failed: ${current.error?.message ?? 'no error given'}`,
          current.error?.code === undefined ? {} : { rpcCode: current.error.code },
        );
      case 'cancelled':
        throw new HostError(
          'cancelled',
          `${name}: the server cancelled the task${current.statusMessage === undefined ? '' : ` (${current.statusMessage})`}`,
        );
      case 'input_required': {
        const fresh = Object.fromEntries(
          Object.entries(current.inputRequests ?? {}).filter(([key]) => !answered.has(key)),
        );
        if (Object.keys(fresh).length > 0) {
          rounds++;
          const position: CallPosition = {
            server: drive.server,
            ...(drive.principal !== undefined && { principal: drive.principal }),
            tool: name,
            round: rounds,
          };
          const raw = rawInputRequests(fresh, position);
          if (rounds > drive.maxRounds) {
            auditRefusedRound(raw, position, drive.policies.audit, 'rounds_exceeded');
            await cancel();
            throw new HostError('rounds_exceeded', `${name} still asked for input after ${drive.maxRounds} rounds`, {
              round: rounds,
            });
          }
          let responses: Record<string, unknown>;
          try {
            responses = await fulfilRound(raw, position, drive.policies, drive.approval);
          } catch (error) {
            // A refused round ends the task too: nobody will answer it.
            await cancel();
            if (aborted()) {
              throw new HostError('cancelled', `${name}: cancelled; tasks/cancel sent for task ${taskId}`);
            }
            throw error;
          }
          for (const key of Object.keys(fresh)) answered.add(key);
          call.onRound?.(rounds, Object.keys(fresh));
          await request('tasks/update', { inputResponses: responses });
          break;
        }
        await sleep(pollDelay(current), signal);
        break;
      }
      default:
        await sleep(pollDelay(current), signal);
    }
    if (Date.now() > deadline) {
      await cancel();
      throw new HostError('protocol_error', `${name}: task ${taskId} did not finish within its time to live`);
    }
    current = (await request('tasks/get', {})) as ServerTask;
  }
}

function pollDelay(task: ServerTask): number {
  const asked =
    typeof task.pollIntervalMs === 'number' && Number.isFinite(task.pollIntervalMs) ? task.pollIntervalMs : 1000;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked));
}
