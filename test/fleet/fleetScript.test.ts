/**
 * `npm run fleet` as a user or a supervisor runs it: the script line of package.json under `sh -c` (npm's way),
 * then SIGTERM to that process alone (npm forwards a signal to its script's process only). Everything the
 * fleet started must stop. The line runs node with tsx as a loader (`node --import tsx`), not tsx's own command:
 * that one relays a signal to a child node and SIGKILLs it (exit 143) when the child has not answered within
 * 30 ms, which a loaded machine can miss. The build step of the line is left out: the suite's global setup built dist/ already,
 * and rebuilding it here would race the other test files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { accepts } from '../../scripts/fleet/processes.js';
import { CLI, mcpRequest, meta } from '../helpers/rawChannel.js';
import { missingBinaries } from '../helpers/redis.js';

const missing = missingBinaries('redis-server', 'nginx');
const ROOT = path.resolve(path.dirname(CLI), '..');
const BUILD = 'npm run build && ';

let runner: ChildProcess | undefined;
afterAll(() => {
  // Whatever is left of the runner's process group (only if the test failed): stop it.
  if (runner?.pid !== undefined) {
    try {
      process.kill(-runner.pid, 'SIGKILL');
    } catch {
      // The group is gone: nothing was left.
    }
  }
});

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

describe.skipIf(missing.length > 0)('npm run fleet', () => {
  it('prints the endpoint, and SIGTERM to the script process stops everything it started', async () => {
    const scripts = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    const line = scripts['fleet'] ?? '';
    expect(line.startsWith(BUILD)).toBe(true);
    const command = `${line.slice(BUILD.length)} --instances 1 -- --model host --quiet`;
    // PATH as npm sets it for a script: the project's binaries (tsx) first.
    runner = spawn('sh', ['-c', command], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${ROOT}/node_modules/.bin:${process.env['PATH'] ?? ''}` },
    });
    let out = '';
    let err = '';
    runner.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    runner.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => runner?.once('exit', (code) => resolve(code)));

    expect(await until(() => out.includes('MCP endpoint:'), 60_000), err).toBe(true);
    const endpoint = /MCP endpoint: (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(out);
    const ports = [...err.matchAll(/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
    const dir = /configuration: (\S+)\/nginx\.conf/.exec(err)?.[1] ?? '';
    expect(endpoint?.[2]).toBeDefined();
    // redis-server, the instance and nginx
    expect(new Set(ports).size).toBe(3);
    expect(existsSync(dir)).toBe(true);
    const discover = await fetch(
      mcpRequest(endpoint?.[1] ?? '', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }),
    );
    expect(discover.status).toBe(200);

    process.kill(runner.pid as number, 'SIGTERM');
    expect(await exited).toBe(0);
    for (const port of ports)
      expect(await until(async () => !(await accepts(port)), 10_000), `port ${port}`).toBe(true);
    expect(existsSync(dir)).toBe(false);
    expect(err).toContain('fleet: stopping');
  }, 90_000);
});
