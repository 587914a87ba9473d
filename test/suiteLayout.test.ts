/**
 * Where each test file runs (vitest.config.ts): most share reused worker threads, so a file that changes the process
 * itself must be listed to get a process of its own. This test reads every test file and the test helpers it
 * imports (not src/: vitest gives each file fresh modules of ours) and fails when one that does so is not listed.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ONE_AT_A_TIME, OWN_PROCESS } from '../vitest.config.js';

const ROOT = resolve(import.meta.dirname, '..');

/** What a file must not do in a shared thread: process-wide changes that outlive the file, or module stubs. */
const PROCESS_WIDE: ReadonlyArray<[string, RegExp]> = [
  [
    'writes an environment variable',
    /process\.env(\[[^\]]*\]|\.\w+)\s*(=[^=]|\?\?=)|process\.env\s*=[^=]|delete process\.env|Object\.assign\(process\.env/,
  ],
  ['stubs the environment or a global', /vi\.stubEnv|vi\.stubGlobal|globalThis\.\w+\s*=[^=]/],
  ['mocks a module', /vi\.(do)?[mM]ock\(/],
  ['fakes the timers', /useFakeTimers/],
  ['listens on or signals the process', /process\.(on|once|off|removeListener|emit)\(|process\.kill\(process\.pid/],
  ['changes the directory, exit code or umask', /process\.(chdir|umask)\(|process\.exitCode\s*=/],
  ['replaces an output stream or the console', /process\.(stdout|stderr)\.write\s*=|console\.\w+\s*=[^=]/],
];

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The file and every file under test/ it imports, directly or not. */
function withTestImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(ROOT, file), 'utf8');
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier!));
    const found = [target, target.replace(/\.js$/, '.ts')].find(
      (candidate) => /\.(ts|mjs|js)$/.test(candidate) && existsSync(join(ROOT, candidate)),
    );
    if (found?.startsWith('test/')) withTestImports(found, seen);
  }
  return seen;
}

describe('where the test files run', () => {
  const files = testFiles('test');

  it('lists only test files that exist', () => {
    for (const listed of [...OWN_PROCESS, ...ONE_AT_A_TIME]) expect(files).toContain(listed);
  });

  it('gives a process of its own to every file that changes the process', () => {
    const unlisted = files
      // This file only reads the others (its patterns would match themselves).
      .filter((file) => file !== 'test/suiteLayout.test.ts')
      .filter((file) => !OWN_PROCESS.includes(file) && !ONE_AT_A_TIME.includes(file))
      .flatMap((file) =>
        [...withTestImports(file)].flatMap((source) => {
          const text = readFileSync(join(ROOT, source), 'utf8');
          return PROCESS_WIDE.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${source} ${what}`);
        }),
      );
    expect(unlisted).toEqual([]);
  });

  it('finds what it looks for', () => {
    // The scan itself: each listed file is there for a reason it can see.
    for (const file of OWN_PROCESS) {
      const texts = [...withTestImports(file)].map((source) => readFileSync(join(ROOT, source), 'utf8'));
      expect(PROCESS_WIDE.some(([, pattern]) => texts.some((text) => pattern.test(text)))).toBe(true);
    }
  });
});
