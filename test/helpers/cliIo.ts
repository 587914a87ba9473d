import { PassThrough } from 'node:stream';

import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { lineChannel, type RawChannel } from './rawChannel.js';

/** Streams for `main(argv, io)` that keep what the command wrote. */
export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
  /** stderr, one entry per line written. */
  errLines(): string[];
}

export function capturedIo(env: Record<string, string> = {}): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env,
    out: () => out,
    err: () => err,
    errLines: () =>
      err
        .split(/\n(?=mcp-model-input: )/)
        .map((line) => line.replace(/\n$/, ''))
        .filter(Boolean),
  };
}

/** What a command run in-process returned and wrote (the shape the process tests' `cli()` helpers return). */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process: `main(argv, io)` with captured streams and only the given environment (nothing of
 * the developer's shell leaks in: provider keys, state keys and the like are whatever the test passes).
 */
export async function runCli(argv: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const io = capturedIo(env);
  const code = await main(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

/**
 * `serve --stdio ARGS` run in-process by `main`, as a RawChannel: its stdin and stdout are the channel's ends,
 * `close()` ends its input and waits for `main` to return. `exitCode` is what `main` returned.
 */
export function inProcessStdioChannel(
  args: string[],
  env: Record<string, string> = {},
): RawChannel & { exitCode: Promise<number> } {
  const io = capturedIo(env);
  // The server reads requests from stdin; the channel reads replies from a second stream fed by stdout.
  const replies = new PassThrough();
  io.stdout.pipe(replies);
  const exitCode = main(['serve', '--stdio', ...args], io);
  const channel = lineChannel({
    input: io.stdin as PassThrough,
    output: replies,
    stderr: () => io.err(),
    exited: async () => {
      await exitCode;
    },
  });
  return { ...channel, exitCode };
}

/**
 * `serve --stdio ARGS` run in-process by `main`, as a client transport for either official SDK client (the
 * 1.x `@modelcontextprotocol/sdk` and `@modelcontextprotocol/client`): newline-delimited JSON-RPC over the
 * command's stdin and stdout, as the SDKs' stdio client transports speak it, without a child process.
 * `stderr()` is what the server wrote there; `close()` ends its input and waits for `main` to return.
 */
export interface InProcessStdioTransport {
  onmessage?: (message: any) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  stderr(): string;
  /** What `main` returned; settles when the server has ended. */
  readonly exitCode: Promise<number>;
}

export function inProcessStdioTransport(args: string[], env: Record<string, string> = {}): InProcessStdioTransport {
  const io = capturedIo(env);
  let started: Promise<number> | undefined;
  let closed = false;
  const ended = (): void => {
    if (closed) return;
    closed = true;
    transport.onclose?.();
  };
  let pending = '';
  const transport: InProcessStdioTransport = {
    async start() {
      if (started !== undefined) throw new Error('inProcessStdioTransport already started');
      io.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
          const line = pending.slice(0, end).replace(/\r$/, '');
          pending = pending.slice(end + 1);
          if (line.trim() === '') continue;
          try {
            transport.onmessage?.(JSON.parse(line));
          } catch (error) {
            transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
          }
        }
      });
      started = main(['serve', '--stdio', ...args], io);
      started.then(ended, (error: unknown) => {
        transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
        ended();
      });
    },
    async send(message) {
      if (closed || started === undefined) throw new Error('not connected');
      (io.stdin as PassThrough).write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      if (started === undefined) return ended();
      (io.stdin as PassThrough).end();
      await started.catch(() => 1);
      ended();
    },
    stderr: () => io.err(),
    get exitCode() {
      return started ?? Promise.reject(new Error('not started'));
    },
  };
  return transport;
}
