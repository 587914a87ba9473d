import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/globalSetup.ts'],
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
