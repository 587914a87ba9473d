/** A redis-server of a test's own, on a free loopback port, data in a temp dir; and the loud skip. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort, hasBinary, startProcess, type Started } from '../../scripts/fleet/processes.js';

export interface TestRedis {
  url: string;
  process: Started;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mmi-redis-'));
  const port = await freePort();
  const started = await startProcess(
    'redis-server',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    /Ready to accept connections/,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    process: started,
    stop: async () => {
      await started.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The Debian binaries missing from PATH, said loudly: `.ci/run` installs them, so in CI these tests
 * always run; a machine without them skips them and says so.
 */
export function missingBinaries(...names: string[]): string[] {
  const missing = names.filter((name) => !hasBinary(name));
  if (missing.length > 0) {
    console.warn(
      `\n*** SKIPPING tests that need ${missing.join(' and ')}: not installed. ` +
        `Install with: apt-get install -y ${missing.join(' ')} (.ci/run does) ***\n`,
    );
  }
  return missing;
}
