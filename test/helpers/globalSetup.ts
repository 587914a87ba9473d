import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Builds `dist/` once per run so process-level tests run the real CLI artifact. Emptied first: a module that
 * moved must not linger in the build (the package test packs this dist/).
 *
 * `--noCheck`: emit only. The emitted files are the same as a checked build's; the type check itself is
 * `npm run typecheck`, which `npm test` runs beside vitest (over src/ and test/ alike).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  rmSync(new URL('../../dist', import.meta.url), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noCheck'], { cwd: root, stdio: 'inherit' });
  // The command-line program as it ships: bundled (scripts/bundleCli.mjs).
  execFileSync(process.execPath, ['scripts/bundleCli.mjs'], { cwd: root, stdio: 'inherit' });
}
