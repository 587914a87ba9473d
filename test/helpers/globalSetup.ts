import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Builds `dist/` once so process-level tests run the real CLI artifact. Emptied first: a module that
 * moved must not linger in the build (the package test packs this dist/).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  rmSync(new URL('../../dist', import.meta.url), { recursive: true, force: true });
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  // The command-line program as it ships: bundled (scripts/bundleCli.mjs).
  execFileSync(process.execPath, ['scripts/bundleCli.mjs'], { cwd: root, stdio: 'inherit' });
}
