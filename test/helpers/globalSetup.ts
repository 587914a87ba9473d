import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { RUN_TMPDIR } from '../../vitest.config.js';

/**
 * Builds `dist/` once per run so process-level tests run the real CLI artifact. Emptied first: a module that
 * moved must not linger in the build (the package test packs this dist/).
 *
 * `--noCheck`: emit only. The emitted files are the same as a checked build's; the type check itself is
 * `npm run typecheck`, which `npm test` runs beside vitest (over src/ and test/ alike).
 *
 * Then makes the run's temporary directory (vitest.config.ts, `RUN_TMPDIR`), and removes it when the run ends.
 */
export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  rmSync(new URL('../../dist', import.meta.url), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noCheck'], { cwd: root, stdio: 'inherit' });
  // The command-line program as it ships: bundled (scripts/bundleCli.mjs).
  execFileSync(process.execPath, ['scripts/bundleCli.mjs'], { cwd: root, stdio: 'inherit' });
  mkdirSync(RUN_TMPDIR, { recursive: true });
  return () => rmSync(RUN_TMPDIR, { recursive: true, force: true });
}
