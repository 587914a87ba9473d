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
