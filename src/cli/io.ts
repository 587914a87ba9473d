/**
 * What a command reads and writes: the CLI is a function of its arguments and these streams, so tests
 * run it in-process with captured streams (`main(argv, io)`) and the binary passes the process's own.
 */
import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** One line on a stream (what `console.log` does for the process's own). */
export function writeLine(stream: Writable, text: string): void {
  stream.write(`${text}\n`);
}
