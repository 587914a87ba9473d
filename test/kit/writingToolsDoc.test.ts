/**
 * docs/writing-tools.md: every code block is compiled and run. The tool is examples/explainFile.ts word for word (the
 * type check compiles it, the kit's tests run it); the serve command starts the server with it; the other blocks run
 * with the package's imports pointed at this checkout.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inProcessStdioChannel } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { meta } from '../helpers/rawChannel.js';

const ROOT = process.cwd();
const EXAMPLE = join(ROOT, 'examples', 'explainFile.ts');
let blocks: Array<{ lang: string; code: string }>;
let dir: string;
let repo: FixtureRepo;

beforeAll(async () => {
  repo = await makeSampleRepo();
  const doc = await readFile(join(ROOT, 'docs', 'writing-tools.md'), 'utf8');
  blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1]!, code: match[2]! }));
  dir = await mkdtemp(join(tmpdir(), 'mmi-doc-blocks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

/** The block with the package's entries and the example module pointed at this checkout, run in a sample repository. */
function local(code: string): string {
  const url = (path: string) => pathToFileURL(join(ROOT, path)).href;
  return code
    .replaceAll("'mcp-model-input/tool'", `'${url('src/entries/tool.ts')}'`)
    .replaceAll("'mcp-model-input/testing'", `'${url('src/entries/testing.ts')}'`)
    .replaceAll("'./explainFile.js'", `'${pathToFileURL(EXAMPLE).href}'`)
    .replaceAll('process.cwd()', JSON.stringify(repo.root));
}

describe('docs/writing-tools.md', () => {
  it('has the blocks this test knows: the tool, serving, McpServer, testing', () => {
    expect(blocks.map((block) => block.lang)).toEqual(['ts', 'sh', 'ts', 'ts']);
  });

  it('shows examples/explainFile.ts as it is', async () => {
    const example = await readFile(EXAMPLE, 'utf8');
    const body = example
      .slice(example.indexOf('import { z }'))
      .replace("from '../src/entries/tool.js'", "from 'mcp-model-input/tool'");
    expect(blocks[0]!.code).toBe(body);
  });

  it('serves the tool with the command it shows', async () => {
    const words = blocks[1]!.code.trim().split(/\s+/);
    expect(words.slice(0, 2)).toEqual(['mcp-model-input', 'serve']);
    const args = words.slice(3).map((word) => (word === './dist/explainFile.js' ? EXAMPLE : word));
    const channel = inProcessStdioChannel(['--root', repo.root, '--quiet', ...args]);
    try {
      const reply = await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
      expect(reply.message?.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['explain_file']);
    } finally {
      await channel.close();
    }
  });

  it.each([2, 3])('runs block %i', async (index) => {
    const file = join(dir, `block${index}.ts`);
    await writeFile(file, local(blocks[index]!.code));
    await expect(import(pathToFileURL(file).href)).resolves.toBeDefined();
  });
});
