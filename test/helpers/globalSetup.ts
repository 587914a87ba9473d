import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Builds `dist/` once so process-level tests run the real CLI artifact. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
}
