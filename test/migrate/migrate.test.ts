/**
 * `migrate DIR`: the diff and the report for each fixture server (test/migrate/servers.ts), what is rewritten,
 * wrapped, flagged or left alone, and --write / --force / --json.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { MigrateReport } from '../../src/migrate/types.js';
import { runCli } from '../helpers/cliIo.js';
import {
  BROKEN_FILE,
  CLOCK_IN_PROMPT,
  HAND_BUILT_MRTR,
  MONOREPO,
  SHAPES,
  V1_ONE_TOOL,
  V1_SEQUENCE_AND_LOOP,
  V2_REQUEST_SAMPLING,
  WRITES_BEFORE_SAMPLING,
  type FileMap,
} from './servers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function layOut(files: FileMap): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mmi-migrate-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

async function report(dir: string): Promise<MigrateReport> {
  const run = await runCli(['migrate', dir, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as MigrateReport;
}

/** The added lines of a diff, without their `+`. */
function added(diff: string): string {
  return diff
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .map((line) => line.slice(1))
    .join('\n');
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

describe('migrate: an SDK v1 server with one sampling tool', () => {
  it('prints a unified diff onto registerModelTool and the report, and writes nothing', async () => {
    const dir = await layOut(V1_ONE_TOOL);
    const run = await runCli(['migrate', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('--- a/src/server.ts\n+++ b/src/server.ts\n@@ ');
    const plus = added(run.stdout);
    expect(plus).toContain(
      "import { createModelKit, defineModelTool, registerModelTool } from 'mcp-model-input/tool';",
    );
    expect(plus).toContain("import { McpServer } from '@modelcontextprotocol/server';");
    expect(plus).toContain("import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';");
    expect(plus).toContain("const modelKit = createModelKit({ models: 'host' });");
    expect(plus).toContain('const draftReleaseNoteTool = defineModelTool({');
    expect(plus).toContain("title: 'Draft a release note',");
    expect(plus).toContain('input: z.object({ changes: z.array(z.string())');
    expect(plus).toContain('steps: { note: {} },');
    expect(plus).toContain('run: async ({ changes, audience }, ctx) => {');
    expect(plus).toContain("const note = await ctx.sample('note', {");
    expect(plus).toContain('registerModelTool(server, draftReleaseNoteTool, modelKit);');
    // What the author's code reads from the answer is untouched.
    expect(run.stdout).toContain(" const text = note.content.type === 'text' ? note.content.text : '';");
    expect(run.stdout).toContain('migrate: 1 sampling call site in 1 file: 1 migrated, 0 flagged, 0 unsupported');
    expect(run.stdout).toContain('SDK v1 imports moved to SDK v2');
    expect(run.stdout).toContain('Nothing written: run with --write');
    expect(await readFile(join(dir, 'src/server.ts'), 'utf8')).toBe(V1_ONE_TOOL['src/server.ts']);
  });

  it('the diff applies with git apply and gives the rewritten file', async () => {
    const dir = await layOut(V1_ONE_TOOL);
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'server');
    const diff = (await runCli(['migrate', dir])).stdout.split('migrate: ')[0] as string;
    await writeFile(join(dir, '..', `${dir.split('/').at(-1)}.patch`), diff);
    git(dir, 'apply', join(dir, '..', `${dir.split('/').at(-1)}.patch`));
    await rm(join(dir, '..', `${dir.split('/').at(-1)}.patch`));
    const applied = await readFile(join(dir, 'src/server.ts'), 'utf8');
    expect(applied).toContain("const note = await ctx.sample('note', {");
    // Nothing left to migrate in the result.
    const again = await report(dir);
    expect(again.callSites).toEqual([]);
    expect(again.changedFiles).toEqual([]);
  });

  it('--json reports each call site: status, kind, location, tool, step, reason', async () => {
    const dir = await layOut(V1_ONE_TOOL);
    const result = await report(dir);
    expect(result.format).toBe('mcp-model-input/migrate@1');
    expect(result.callSites).toEqual([
      {
        status: 'migrated',
        kind: 'createMessage',
        location: { file: 'src/server.ts', line: 15, column: 24 },
        tool: 'draft_release_note',
        step: 'note',
        reason: 'rewritten to ctx.sample',
      },
    ]);
    expect(result.changedFiles).toEqual(['src/server.ts']);
    expect(result.written).toBe(false);
  });
});

describe('migrate: two samples in sequence and one in a loop', () => {
  it('gives each call a stable step name from its binding, drops the unused v1 schema import, and notes the loop', async () => {
    const dir = await layOut(V1_SEQUENCE_AND_LOOP);
    const run = await runCli(['migrate', dir]);
    expect(run.code, run.stderr).toBe(0);
    const plus = added(run.stdout);
    expect(plus).toContain("const risks = await extra.sample('risks', {");
    expect(plus).toContain("const verdict = await extra.sample('verdict', {");
    expect(plus).toContain('steps: { risks: {}, verdict: {} },');
    expect(plus).toContain("const better = await ctx.sample('better', {");
    expect(run.stdout).toContain("-import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';");
    expect(plus).not.toContain('CreateMessageResultSchema');
    const result = await report(dir);
    expect(result.callSites.map((site) => [site.status, site.tool, site.step])).toEqual([
      ['migrated', 'review_diff', 'risks'],
      ['migrated', 'review_diff', 'verdict'],
      ['migrated', 'refine_title', 'better'],
    ]);
    expect(result.callSites[2]?.reason).toContain('in a for loop (line 41): one journal entry per iteration');
  });

  it('names the steps the same on a second run (stable)', async () => {
    const dir = await layOut(V1_SEQUENCE_AND_LOOP);
    const first = await runCli(['migrate', dir, '--json']);
    const second = await runCli(['migrate', dir, '--json']);
    expect(second.stdout).toBe(first.stdout);
  });
});

describe('migrate: an SDK v2 server using requestSampling', () => {
  it('rewrites requestSampling to ctx.sample and the request signal to ctx.signal', async () => {
    const dir = await layOut(V2_REQUEST_SAMPLING);
    const run = await runCli(['migrate', dir]);
    expect(run.code, run.stderr).toBe(0);
    const plus = added(run.stdout);
    expect(plus).toContain('const known = await lookUp(term, ctx.signal);');
    expect(plus).toContain("const explanation = await ctx.sample('explanation', {");
    expect(plus).toContain('input: z.object({ term: z.string().min(1) }),');
    expect(run.stdout).not.toContain("-import { McpServer } from '@modelcontextprotocol/server';");
    const [site] = (await report(dir)).callSites;
    expect(site).toMatchObject({
      status: 'migrated',
      kind: 'requestSampling',
      step: 'explanation',
      tool: 'explain_term',
    });
  });

  it('reports a hand-built inputRequired state machine and leaves it as it is', async () => {
    const dir = await layOut(HAND_BUILT_MRTR);
    const result = await report(dir);
    expect(result.callSites).toHaveLength(1);
    expect(result.callSites[0]).toMatchObject({ status: 'unsupported', kind: 'inputRequired', tool: 'ask' });
    expect(result.callSites[0]?.reason).toContain('hand-built MRTR state machine');
    expect(result.changedFiles).toEqual([]);
  });
});

describe('migrate: replay safety', () => {
  it('wraps a counter and a file write before the sample in ctx.once, and flags a write in a loop', async () => {
    const dir = await layOut(WRITES_BEFORE_SAMPLING);
    const run = await runCli(['migrate', dir]);
    const plus = added(run.stdout);
    expect(plus).toContain("await ctx.once('calls', async () => {\n      calls++;\n    });");
    expect(plus).toContain(
      "await ctx.once('write_file', async () => {\n      await writeFile('journal/latest.txt', entry);\n    });",
    );
    // The handler with a write in a loop is left unchanged.
    expect(plus).not.toContain("'file_entries'");
    const result = await report(dir);
    expect(result.callSites.map((site) => [site.tool, site.status])).toEqual([
      ['file_entry', 'migrated'],
      ['file_entries', 'flagged'],
    ]);
    expect(result.callSites[0]?.reason).toContain("in ctx.once('write_file')");
    expect(result.callSites[1]?.reason).toBe(
      'replay-unsafe: appendFile(...) runs again on every MRTR round and it runs in a loop, where one ctx.once key would give every iteration the same result (line 27); handler left unchanged',
    );
    expect(result.callSites[1]?.step).toBeUndefined();
  });

  it('replaces Date.now() in the prompt by a ctx.once value, so every round asks the same question', async () => {
    const dir = await layOut(CLOCK_IN_PROMPT);
    const run = await runCli(['migrate', dir]);
    expect(added(run.stdout)).toContain(
      "text: `Today is ${new Date((await ctx.once('date_now', async () => Date.now()))).toDateString()}. Done: ${done}`",
    );
    const [site] = (await report(dir)).callSites;
    expect(site?.status).toBe('migrated');
    expect(site?.reason).toContain("Date.now() (line 12) in ctx.once('date_now')");
  });
});

describe('migrate: files it cannot read, and monorepos', () => {
  it('reports a file that does not parse with its line and leaves every file alone', async () => {
    const dir = await layOut(BROKEN_FILE);
    const run = await runCli(['migrate', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('--- a/');
    expect(run.stdout).toMatch(/not analysed:\n {2}broken\.ts:4:\d+ {2}does not parse: ',' expected\./);
    const result = await report(dir);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: 'broken.ts', line: 4 });
    expect(result.changedFiles).toEqual([]);
  });

  it('migrates both servers of a monorepo, one diff each, and never reads node_modules', async () => {
    const dir = await layOut(MONOREPO);
    const run = await runCli(['migrate', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('--- a/packages/alpha/src/index.ts\n+++ b/packages/alpha/src/index.ts\n');
    expect(run.stdout).toContain('--- a/packages/beta/src/index.ts\n+++ b/packages/beta/src/index.ts\n');
    expect(run.stdout).not.toContain('node_modules');
    const result = await report(dir);
    expect(result.callSites.map((site) => [site.location.file, site.tool, site.status])).toEqual([
      ['packages/alpha/src/index.ts', 'draft_release_note', 'migrated'],
      ['packages/beta/src/index.ts', 'explain_term', 'migrated'],
    ]);
  });
});

describe('migrate --write', () => {
  it('refuses outside a git work tree, and writes with --force', async () => {
    const dir = await layOut(V2_REQUEST_SAMPLING);
    const refused = await runCli(['migrate', dir, '--write']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('it is not inside a git work tree (commit first, or pass --force)');
    expect(await readFile(join(dir, 'server.ts'), 'utf8')).toBe(V2_REQUEST_SAMPLING['server.ts']);
    const forced = await runCli(['migrate', dir, '--write', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Wrote server.ts.');
    expect(await readFile(join(dir, 'server.ts'), 'utf8')).toContain("await ctx.sample('explanation', {");
  });

  it('refuses in a work tree with uncommitted changes and writes in a clean one', async () => {
    const dir = await layOut(V2_REQUEST_SAMPLING);
    git(dir, 'init', '-q');
    await writeFile(join(dir, 'notes.txt'), 'draft\n');
    const refused = await runCli(['migrate', dir, '--write']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('its work tree has uncommitted changes (notes.txt, server.ts)');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'server');
    const written = await runCli(['migrate', dir, '--write', '--json']);
    expect(written.code, written.stderr).toBe(0);
    expect((JSON.parse(written.stdout) as MigrateReport).written).toBe(true);
    expect(git(dir, 'status', '--porcelain')).toBe(' M server.ts\n');
  });

  it('--force alone, no DIR, or two DIRs are usage errors', async () => {
    const dir = await layOut(V2_REQUEST_SAMPLING);
    expect((await runCli(['migrate', dir, '--force'])).code).toBe(2);
    expect((await runCli(['migrate'])).code).toBe(2);
    expect((await runCli(['migrate', dir, dir])).code).toBe(2);
    const missing = await runCli(['migrate', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('is not a directory');
  });
});

describe('migrate: what it reads but does not rewrite', () => {
  it('says why for each shape, rewrites SDK v1 server.tool(...) and a handler without an input schema', async () => {
    const dir = await layOut(SHAPES);
    const result = await report(dir);
    const byTool = result.callSites.map((site) => [site.location.file, site.tool ?? null, site.status, site.reason]);
    expect(byTool).toEqual([
      ['legacy.ts', 'haiku', 'migrated', 'rewritten to ctx.sample'],
      ['server.ts', null, 'unsupported', expect.stringContaining('not inside an inline tool handler')],
      ['server.ts', 'with_options', 'unsupported', expect.stringContaining('passes request options')],
      ['server.ts', 'in_callback', 'unsupported', expect.stringContaining('sits in a nested function (line 16)')],
      ['server.ts', 'with_meta', 'unsupported', "the tool config's `_meta` has no place in defineModelTool"],
      ['server.ts', 'logs', 'unsupported', expect.stringContaining('uses `ctx.mcpReq.log` (line 26)')],
      ['server.ts', 'no_schema', 'migrated', 'rewritten to ctx.sample'],
      ['streamable.ts', 'echo_model', 'unsupported', expect.stringContaining('StreamableHTTPServerTransport')],
    ]);
    const diff = (await runCli(['migrate', dir])).stdout;
    expect(added(diff)).toContain('input: z.object({}),');
    expect(added(diff)).toContain('run: async (_args, ctx) => {');
    expect(added(diff)).toContain('annotations: { readOnlyHint: true },');
    expect(added(diff)).toContain("await ctx.log('debug', 'asking');");
    expect(added(diff)).toContain("const poem = await ctx.sample('poem', {");
    expect(diff).not.toContain('+++ b/streamable.ts');
  });
});
