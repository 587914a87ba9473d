/** The stdio probe: spawns the audited command (no shell) and speaks newline-delimited JSON-RPC to it. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import type { Exchange, JsonRpcMessage, ProbeChannel, StrayMessage } from './channel.js';
import { splitCommand } from '../host/target.js';

export interface StdioChannelOptions {
  command: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

const MAX_NOISE = 20;
const STDERR_TAIL = 2000;

export function createStdioChannel(options: StdioChannelOptions): ProbeChannel {
  const [file, ...args] = splitCommand(options.command);
  const child = spawn(file as string, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  const pending = new Map<string, (exchange: Exchange) => void>();
  const stray: StrayMessage[] = [];
  const noise: string[] = [];
  const wakers = new Set<() => void>();
  let seq = 0;
  let stderr = '';
  let gone: string | undefined;

  const finish = (reason: string) => {
    gone ??= reason;
    for (const resolve of pending.values()) resolve({ failure: gone });
    pending.clear();
    for (const wake of wakers) wake();
  };
  child.on('error', (error) => finish(`cannot run the command: ${error.message}`));
  child.on('exit', (code, signal) => finish(`the server process exited (${signal ?? `code ${code}`})`));
  child.stdin.on('error', () => {}); // EPIPE after an exit is reported through 'exit'
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      if (noise.length < MAX_NOISE && line.trim() !== '') noise.push(line.slice(0, 200));
      return;
    }
    const record = message as JsonRpcMessage;
    const key = 'method' in record ? undefined : JSON.stringify(record['id']);
    const resolve = key === undefined ? undefined : pending.get(key);
    if (key !== undefined && resolve !== undefined) {
      pending.delete(key);
      resolve({ message: record });
    } else {
      stray.push({ message: record, seq: ++seq });
    }
    for (const wake of wakers) wake();
  });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (gone !== undefined) done();
    });

  return {
    kind: 'stdio',
    async send(message) {
      if (gone !== undefined) return { failure: gone };
      child.stdin.write(`${JSON.stringify(message)}\n`);
      if (!('id' in message)) return {};
      const key = JSON.stringify(message['id']);
      return new Promise<Exchange>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(key);
          resolve({ failure: `no response within ${options.timeoutMs} ms` });
        }, options.timeoutMs);
        pending.set(key, (exchange) => {
          clearTimeout(timer);
          resolve(exchange);
        });
      });
    },
    stray: () => stray,
    noise: () => noise,
    settle: sleep,
    diagnostics: () => (stderr.trim() === '' ? '' : `stderr: ${stderr.trim().split('\n').slice(-3).join(' | ')}`),
    async close() {
      if (gone === undefined) {
        child.stdin.end();
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        const wait = (ms: number) => Promise.race([exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
        await wait(2000);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await wait(2000);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      finish('the channel is closed');
    },
  };
}
