import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { RUN_TMPDIR } from '../../vitest.config.js';

/** Removes the temporary directories of earlier runs whose vitest process is gone (killed before its teardown). */
function removeAbandonedRunDirs(): void {
  const prefix = basename(RUN_TMPDIR).replace(/\d+$/, '');
  for (const name of readdirSync(dirname(RUN_TMPDIR))) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
        rmSync(join(dirname(RUN_TMPDIR), name), { recursive: true, force: true });
      }
    }
  }
}

/**
 * Builds `dist/` once per run so process-level tests run the real CLI artifact. Emptied first: a module that
 * moved must not linger in the build (the package test packs this dist/).
 *
 * `--noCheck`: emit only. The emitted files are the same as a checked build's; the type check itself is
 * `npm run typecheck`, which `npm test` runs beside vitest (over src/ and test/ alike).
 *
 * Then makes the run's temporary directory (vitest.config.ts, `RUN_TMPDIR`), and removes it when the run ends; one
 * that an earlier run left (its process killed before it could remove it) is removed first.
 */
export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  rmSync(new URL('../../dist', import.meta.url), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noCheck'], { cwd: root, stdio: 'inherit' });
  // The command-line program as it ships: bundled (scripts/bundleCli.mjs).
  execFileSync(process.execPath, ['scripts/bundleCli.mjs'], { cwd: root, stdio: 'inherit' });
  removeAbandonedRunDirs();
  mkdirSync(RUN_TMPDIR, { recursive: true });
  // tsx (the examples, a few fixtures) keeps its compile cache at TMPDIR/tsx-EUID: the run's links to the usual
  // one, so that it lasts from run to run as before and the processes the tests start under tsx find it warm.
  // Only a speed-up: where a link cannot be made (Windows without the right), tsx starts a cache of its own.
  const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  try {
    mkdirSync(join(tmpdir(), tsxCache), { recursive: true });
    symlinkSync(join(tmpdir(), tsxCache), join(RUN_TMPDIR, tsxCache));
  } catch {
    // tsx makes its own under RUN_TMPDIR
  }
  return () => rmSync(RUN_TMPDIR, { recursive: true, force: true });
}
