import { spawn, type ChildProcess } from 'node:child_process';

import { CLI } from './rawChannel.js';

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait (SIGKILL after a bounded grace); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Bounds for a real `serve` process on a loaded machine (a suite beside other work on two cores), where starting or
 * stopping one can take many times its fraction of a second when quiet: generous, so only a hang reaches them.
 */
const LISTEN_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 30_000;

/** Starts `mcp-model-input serve --http HOST:0 ...` and waits (bounded) for its listening line. */
export async function startHttpServer(
  args: string[],
  env: Record<string, string> = {},
  bind = '127.0.0.1:0',
): Promise<RunningHttpServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', bind, ...args], { env: { ...process.env, ...env } });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line within ${LISTEN_TIMEOUT_MS} ms: ${stderr}`));
    }, LISTEN_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/\S+:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const port = Number(/:(\d+)\/mcp$/.exec(url)?.[1]);
  return {
    url,
    port,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.once('exit', (code) => {
          clearTimeout(force);
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}
