import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/globalSetup.ts'],
    // Two files at a time, each in its own process (vitest's default on a 2-core machine is one at a time). Many
    // files wait on child processes, sockets and git, so two keep both cores busy. Not `isolate: false`: it
    // saves CPU but lets module-level state (the process-wide rate limiter, the survey cache) carry from one
    // file to the next. Measured in docs/benchmarks.md ("Test suite").
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    coverage: {
      // `npm run coverage`. Only code run in the test workers counts: a child process (`dist/cli.js`) is not
      // measured, which is one more reason the CLI tests run `main(argv, io)` in-process.
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
