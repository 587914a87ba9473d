import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defineConfig } from 'vitest/config';

/**
 * The I/O-heavy files: `npm pack` and `npm install` of the tarball (14,500 files), the fleet (nginx, Redis, two
 * instances; and `npm run fleet` as a user runs it), and a 5,200-file tree. They run one at a time, never beside one
 * another: two of them at once each took about twice the CPU and wall time.
 */
export const ONE_AT_A_TIME = [
  'test/package.test.ts',
  'test/fleet/fleet.test.ts',
  'test/fleet/fleetScript.test.ts',
  'test/repo/facts/repoFacts.test.ts',
];

/**
 * Files that change the process itself (environment variables, listeners, timers, signals) or stub modules, so
 * they get a process of their own, as every file did before. test/suiteLayout.test.ts fails when a file that does
 * any of this (or a test helper it imports does) is not listed here.
 */
export const OWN_PROCESS = [
  'test/cli/inProcess.test.ts',
  'test/cli/serveFlags.test.ts',
  'test/repo/gitListing.test.ts',
  'test/repo/readWithoutCounts.test.ts',
];

/** Room the run's temporary files may take at their peak (the package test's install alone is about 140 MB). */
const MEMORY_DIR_FREE_BYTES = 2 * 1024 ** 3;

/**
 * The run's own temporary directory (TMPDIR, which `os.tmpdir()` reads; the processes the tests start inherit it),
 * made by the global setup and removed with whatever a test left in it when the run ends. In memory (/dev/shm)
 * when the machine has one with room to spare, else under the system's temporary directory: the tests write many
 * small trees (fixture repositories, git repositories, the package test's 15,000-file install), and on a
 * disk-backed /tmp the kernel's share of that was a quarter of the suite's CPU time. Named by the vitest process's id, so the setup and the workers agree on it.
 */
function runTemporaryDir(): string {
  let parent = tmpdir();
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.bavail * fs.bsize >= MEMORY_DIR_FREE_BYTES) parent = '/dev/shm';
  } catch {
    // no /dev/shm here (macOS, Windows)
  }
  return join(parent, `mmi-test-run-${process.pid}`);
}

export const RUN_TMPDIR = runTemporaryDir();

const shared = { testTimeout: 30_000, hookTimeout: 60_000, env: { TMPDIR: RUN_TMPDIR } };

export default defineConfig({
  test: {
    // Built once per run, before any project starts (the root's global setup; the projects declare none).
    globalSetup: ['test/helpers/globalSetup.ts'],
    env: { TMPDIR: RUN_TMPDIR },
    // Two files at a time per pool. The worker threads are reused from one file to the next, but each file still
    // starts from fresh modules of ours (the project's `isolate: true` resets vitest's module graph before every
    // file), so module-level state (the host rate limiter, the survey cache, the warm-up) never carries over; what
    // is shared is the loaded packages in node_modules, which is most of a file's start-up. The forks stay one
    // process per file.
    maxWorkers: 2,
    minWorkers: 1,
    poolOptions: { threads: { isolate: false } },
    projects: [
      {
        test: {
          ...shared,
          name: 'threads',
          include: ['test/**/*.test.ts'],
          exclude: [...ONE_AT_A_TIME, ...OWN_PROCESS],
          pool: 'threads',
          poolOptions: { threads: { isolate: true } },
        },
      },
      {
        test: { ...shared, name: 'own-process', include: OWN_PROCESS, pool: 'forks' },
      },
      {
        test: {
          ...shared,
          name: 'one-at-a-time',
          include: ONE_AT_A_TIME,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true, isolate: true } },
        },
      },
    ],
    coverage: {
      // `npm run coverage`. Only code run in the test workers counts: a child process (`dist/cli.js`) is not
      // measured, which is one more reason the CLI tests run `main(argv, io)` in-process. The script gives every
      // file a fresh thread (`--poolOptions.threads.isolate`): V8's counts of modules loaded again in a reused
      // thread merge wrongly (vitest-dev/vitest#3846: lines run by the tests reported as not run).
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
