/**
 * `serve --tool-module FILE` and `--tools`: a good module served next to (or instead of) the shipped tool, and the
 * start-up errors (exit 2, nothing served) for a missing file, a module that throws on import, and a default export
 * that is not a tool.
 */
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inProcessStdioChannel, runCli } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { meta } from '../helpers/rawChannel.js';

const EXAMPLE = join(process.cwd(), 'examples', 'explainFile.ts');
const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'toolModules');

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

async function listed(args: string[]): Promise<string[]> {
  const channel = inProcessStdioChannel(['--root', repo.root, '--quiet', ...args]);
  try {
    const reply = await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    return reply.message?.result.tools.map((tool: { name: string }) => tool.name);
  } finally {
    await channel.close();
  }
}

describe('serve --tool-module', () => {
  it('serves the module tool alone, or with the shipped ones chosen by --tools', async () => {
    expect(await listed(['--tool-module', EXAMPLE])).toEqual(['explain_file']);
    expect(await listed(['--tool-module', EXAMPLE, '--tools', 'summarize_repo'])).toEqual([
      'explain_file',
      'summarize_repo',
    ]);
    expect(await listed([])).toEqual(['ask_repo', 'review_changes', 'summarize_repo']);
    expect(await listed(['--tools', 'ask_repo,review_changes'])).toEqual(['ask_repo', 'review_changes']);
  });

  it('answers a call of the module tool (built-in model by default)', async () => {
    const channel = inProcessStdioChannel(['--root', repo.root, '--quiet', '--tool-module', EXAMPLE]);
    try {
      const reply = await channel.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'explain_file', arguments: { path: 'src/index.ts' }, _meta: meta() },
      });
      expect(reply.message?.result.content[0].text).toContain('(answered by: builtin)');
    } finally {
      await channel.close();
    }
  });

  it.each([
    ['nope/missing.js', 'no such file'],
    [join(FIXTURES, 'throws.mjs'), 'failed to load (Error: boom at import)'],
    [join(FIXTURES, 'notATool.mjs'), 'its default export is not a tool made with defineModelTool'],
    [join(FIXTURES, 'otherVersion.mjs'), 'exports a tool of another kit version (model-tool@2)'],
  ])('refuses to start with %s: exit 2, one line', async (file, message) => {
    const { code, stderr, stdout } = await runCli(['serve', '--stdio', '--root', repo.root, '--tool-module', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`--tool-module ${file}: ${message}`);
    expect(stdout).toBe('');
  });

  it('refuses an unknown shipped tool', async () => {
    const { code, stderr } = await runCli(['serve', '--stdio', '--root', repo.root, '--tools', 'ask_anything']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "--tools: unknown tool 'ask_anything' (shipped: summarize_repo, ask_repo, review_changes)",
    );
  });
});
