/**
 * Checkouts whose `.git` is a file (a linked worktree, a submodule, a separate git directory) through both fronts:
 * the served tool on every model path (built-in, host over MRTR) and the `summarize` command. A `.git` file that
 * names no git directory is a tool error whose log line says what is wrong. The reader's side: test/repo/gitLayouts.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliIo.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';
import { capturingLogger, createTestFront } from '../helpers/servers.js';
import { TempDirs, writeTree } from '../repo/fixture.js';
import { makeGitLayouts, type GitLayouts } from '../repo/gitLayoutsFixture.js';

const temp = new TempDirs();
let layouts: GitLayouts;
beforeAll(async () => {
  layouts = await makeGitLayouts(temp);
});
afterAll(() => temp.cleanup());

const call = (capabilities: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'summarize_repo', arguments: {}, _meta: meta(capabilities) },
});

describe('the served tool on a checkout whose .git is a file', () => {
  it.each(['worktree', 'submodule', 'separate'] as const)(
    '%s: the built-in model and the host both work',
    async (layout) => {
      const root = layouts[layout].root;
      const builtin = httpChannel(createTestFront({ root, model: 'builtin' }));
      const done = (await builtin.send(call({}))).message?.['result'];
      expect(done?.isError).not.toBe(true);
      expect(done?.structuredContent.picked).toContain('README.md');
      expect(done?.structuredContent.picked).not.toContain('secret.env');
      await builtin.close();

      const host = httpChannel(createTestFront({ root, model: 'host' }));
      const round = (await host.send(call({ sampling: {} }))).message?.['result'];
      expect(round?.resultType).toBe('input_required');
      const prompt = JSON.stringify(round?.inputRequests);
      expect(prompt).toContain('src/main.ts');
      expect(prompt).not.toContain('secret.env');
      await host.close();
    },
  );

  it('a .git file naming nothing: a tool error, and the operator log says what is wrong', async () => {
    const root = await temp.make('garbled-');
    await writeTree(root, { 'README.md': '# x\n', '.git': 'not a pointer\n' });
    const logger = capturingLogger();
    const channel = httpChannel(createTestFront({ root, model: 'builtin', logger }));
    const reply = await channel.send(call({}));
    expect(reply.message?.['error']).toBeUndefined();
    expect(reply.message?.['result']?.isError).toBe(true);
    expect(logger.lines.join('\n')).toMatch(/\.git is a file that does not name a git directory/);
    expect(logger.lines.join('\n')).not.toContain('ENOTDIR');
    await channel.close();
  });
});

describe('summarize on a checkout whose .git is a file', () => {
  it('a linked worktree is summarized, with the main repository ignore rules', async () => {
    const { code, stdout, stderr } = await runCli(['summarize', layouts.worktree.root, '--json']);
    expect(stderr).not.toContain('ENOTDIR');
    expect(code).toBe(0);
    const { picked } = JSON.parse(stdout) as { picked: string[] };
    expect(picked).toContain('README.md');
    expect(picked).not.toContain('secret.env');
  });

  it('a garbled .git file: a clear message, not ENOTDIR', async () => {
    const root = await temp.make('garbled-');
    await writeTree(root, { 'README.md': '# x\n' });
    await writeFile(path.join(root, '.git'), 'gitdir:\n');
    const { code, stderr } = await runCli(['summarize', root, '--quiet']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/\.git is a file that does not name a git directory/);
    expect(stderr).not.toContain('ENOTDIR');
  });
});
