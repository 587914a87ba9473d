/**
 * `npm run summarize` (scripts/summarize.mjs) builds only when the build is missing or older than a source, then runs
 * dist/cli.js summarize with the arguments given. Run against a copy of the script in a temporary tree whose
 * "build" is a stand-in: a dist/cli.js that prints its arguments, and an `npm` that records that it was asked to build.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// @ts-expect-error: a plain JavaScript script, without types
import { staleReason } from '../../scripts/summarize.mjs';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../../scripts/summarize.mjs');
const FAKE_NPM = `
const { mkdirSync, writeFileSync } = require('node:fs');
process.stdout.write('fake build ran\\n');
mkdirSync('dist/cli-chunks', { recursive: true });
writeFileSync('dist/cli.js', "process.stdout.write('summary of ' + process.argv.slice(2).join(' ') + '\\\\n');\\n");
writeFileSync('dist/cli-chunks/modules.json', '{}\\n');
`;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mmi-summarize-script-'));
  await mkdir(join(root, 'scripts'));
  await mkdir(join(root, 'src'));
  await copyFile(SCRIPT, join(root, 'scripts/summarize.mjs'));
  await writeFile(join(root, 'src/index.ts'), 'export {};\n');
  await writeFile(join(root, 'package.json'), '{"type":"module"}\n');
  await writeFile(join(root, 'fake-npm.cjs'), FAKE_NPM);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Sets a file's modification time to `seconds` after the epoch (whole seconds: no clock is read). */
const at = (path: string, seconds: number) => utimes(join(root, path), seconds, seconds);

async function built(seconds: number): Promise<void> {
  await mkdir(join(root, 'dist/cli-chunks'), { recursive: true });
  await writeFile(
    join(root, 'dist/cli.js'),
    "process.stdout.write('summary of ' + process.argv.slice(2).join(' ') + '\\n');\n",
  );
  await writeFile(join(root, 'dist/cli-chunks/modules.json'), '{}\n');
  await at('dist/cli.js', seconds);
  await at('dist/cli-chunks/modules.json', seconds);
}

async function summarize(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [join(root, 'scripts/summarize.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, npm_execpath: join(root, 'fake-npm.cjs') },
  });
}

describe('staleReason', () => {
  it('no build yet, a source newer than the build, a rewritten dist/cli.js; else up to date', async () => {
    expect(staleReason(root)).toBe('no build yet');
    await at('src/index.ts', 1_000);
    await at('package.json', 1_000);
    await built(2_000);
    expect(staleReason(root)).toBeUndefined();
    await mkdir(join(root, 'src/deep'));
    await writeFile(join(root, 'src/deep/new.ts'), 'export {};\n');
    await at('src/deep/new.ts', 3_000);
    expect(staleReason(root)).toBe('src/deep/new.ts is newer than the build');
    await at('src/deep/new.ts', 1_000);
    await at('dist/cli.js', 2_500);
    expect(staleReason(root)).toBe('dist/cli.js was rewritten after the last build');
  });
});

describe('the script', () => {
  it('builds when there is no build, then runs summarize with the arguments', async () => {
    const { stdout, stderr } = await summarize('.', '--json');
    expect(stderr).toContain('building first (no build yet)');
    expect(stderr).toContain('fake build ran');
    // stdout is the summary only: the build's output went to stderr.
    expect(stdout).toBe('summary of summarize . --json\n');
  });

  it('an up-to-date build is not built again', async () => {
    await at('src/index.ts', 1_000);
    await at('package.json', 1_000);
    await built(2_000);
    const { stdout, stderr } = await summarize('.');
    expect(stderr).toBe('');
    expect(stdout).toBe('summary of summarize .\n');
  });
});
