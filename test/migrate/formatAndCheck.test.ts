/**
 * `migrate` formats its output with the project's own Prettier settings (the project's Prettier, resolved from
 * DIR), and `--check` type-checks the result in memory with the file's tsconfig.json, listing only the errors the
 * rewrite adds.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as prettier from 'prettier';
import { afterEach, describe, expect, it } from 'vitest';

import { migrateDirectory } from '../../src/migrate/migrateDirectory.js';
import type { MigrateReport } from '../../src/migrate/types.js';
import { runCli } from '../helpers/cliIo.js';
import { KIT_TYPES } from './kitTypes.js';
import { V1_SEQUENCE_AND_LOOP, V2_REQUEST_SAMPLING, type FileMap } from './servers.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function layOut(files: FileMap, packages: string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mmi-migrate-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  for (const name of packages) {
    await mkdir(dirname(join(dir, 'node_modules', name)), { recursive: true });
    await symlink(join(NODE_MODULES, name), join(dir, 'node_modules', name), 'dir');
  }
  return dir;
}

const PRETTIER_SETTINGS = { singleQuote: true, printWidth: 100, trailingComma: 'all' as const };

describe('migrate formats with the project Prettier settings', () => {
  it('runs the rewritten file through the project Prettier with its configuration', async () => {
    const dir = await layOut({ ...V1_SEQUENCE_AND_LOOP, '.prettierrc.json': JSON.stringify(PRETTIER_SETTINGS) }, [
      'prettier',
    ]);
    const { changes, report } = await migrateDirectory(dir);
    const [change] = changes;
    expect(change?.path).toBe('server.ts');
    const after = change?.after as string;
    expect(await prettier.check(after, { ...PRETTIER_SETTINGS, parser: 'typescript' })).toBe(true);
    // The rewrite's own output joins the old call's lines; Prettier gives them back their shape.
    expect(after).toContain("    const risks = await extra.sample('risks', {\n      messages: [");
    expect(report.notes.some((note) => note.includes('Prettier'))).toBe(false);
  });

  it('leaves the text as printed, and says so, when the project has no Prettier', async () => {
    const dir = await layOut(V1_SEQUENCE_AND_LOOP);
    const { report } = await migrateDirectory(dir);
    expect(report.notes).toContain(
      'server.ts: Prettier is not installed in the project, so the output is as the rewrite printed it',
    );
  });
});

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    paths: { 'mcp-model-input/tool': ['./kit/tool.d.ts'] },
  },
  include: ['*.ts'],
};

// Each test type-checks a whole TypeScript program in-process: seconds of CPU quietly, several times that when loaded.
describe('migrate --check', { timeout: 120_000 }, () => {
  const packages = ['zod', '@modelcontextprotocol/server', '@modelcontextprotocol/core'];

  it('type-checks the rewritten server and says it passes', async () => {
    const dir = await layOut(
      {
        ...V2_REQUEST_SAMPLING,
        'package.json': JSON.stringify({ name: 'glossary', type: 'module' }),
        'tsconfig.json': JSON.stringify(TSCONFIG),
        'kit/tool.d.ts': KIT_TYPES,
      },
      packages,
    );
    const run = await runCli(['migrate', dir, '--check']);
    expect(run.stdout).toMatch(/check: the result type-checks \(no new error/);
    expect(run.code, run.stdout).toBe(0);
  });

  it('lists the errors the rewrite adds, with file and line, and exits 1', async () => {
    // zod 3 schemas work with the SDK's registerTool (Standard Schema) but not as a kit tool's input.
    const source = (V2_REQUEST_SAMPLING['server.ts'] as string).replace(
      "import * as z from 'zod';",
      "import * as z from 'zod/v3';",
    );
    const dir = await layOut(
      {
        'server.ts': source,
        'package.json': JSON.stringify({ name: 'glossary', type: 'module' }),
        'tsconfig.json': JSON.stringify(TSCONFIG),
        'kit/tool.d.ts': KIT_TYPES,
      },
      packages,
    );
    const run = await runCli(['migrate', dir, '--check', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as MigrateReport;
    expect(report.check?.ok).toBe(false);
    expect(report.check?.errors.length).toBeGreaterThan(0);
    expect(report.check?.errors[0]).toMatch(/^server\.ts:\d+: TS\d+: /);
  });
});
