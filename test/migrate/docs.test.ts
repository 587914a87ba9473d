/**
 * docs/migrate.md shows exactly what the command does: its "before" server, migrated with this project's own
 * Prettier settings, gives its "after" text and its report, byte for byte.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from '../helpers/cliIo.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dir: string | undefined;
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('docs/migrate.md', () => {
  it('its before/after example and report are what migrate prints', async () => {
    const doc = await readFile(join(ROOT, 'docs/migrate.md'), 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
    const [before, after] = blocks;
    expect(before).toContain('server.server.createMessage');
    dir = await mkdtemp(join(tmpdir(), 'mmi-migrate-doc-'));
    await writeFile(join(dir, 'server.ts'), before as string);
    await copyFile(join(ROOT, '.prettierrc.json'), join(dir, '.prettierrc.json'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(join(ROOT, 'node_modules/prettier'), join(dir, 'node_modules/prettier'), 'dir');
    const run = await runCli(['migrate', dir, '--write', '--force']);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'server.ts'), 'utf8')).toBe(after);
    const report = /And the report:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1] as string;
    expect(run.stdout).toBe(`${report}Wrote server.ts.\n`);
  });
});
