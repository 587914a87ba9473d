import { spawn, type ChildProcess } from 'node:child_process';

import { CLI } from './rawChannel.js';

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
}

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
      reject(new Error(`no listening line within 10 s: ${stderr}`));
    }, 10_000);
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
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', (code) => {
          clearTimeout(force);
          resolve(code);
        });
        child.kill('SIGTERM');
      }),
  };
}
