import { PassThrough } from 'node:stream';

import type { CliIo } from '../../src/cli/io.js';

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
