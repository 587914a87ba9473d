/**
 * The examples in the explore tools' descriptions are arguments the tools take: each `e.g.` path, passed to its
 * own tool through the same validation and explorer the model's calls go through, succeeds on a tree that has it.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXPLORE_TOOLS, readToolCall } from '../../../src/flows/summarizeRepo/explore/tools.js';
import { openRepository } from '../../../src/repo/index.js';
import { createExplorer, type Explorer } from '../../../src/repo/explore/index.js';
import { makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';

let repo: FixtureRepo;
let explorer: Explorer;
beforeAll(async () => {
  repo = await makeTree({
    'README.md': '# Demo\n',
    'src/index.ts': 'export const demo = 1;\n',
    'src/lib/parse.ts': 'export const parse = 2;\n',
  });
  explorer = createExplorer(await openRepository(repo.root, { listing: 'walker' }));
});
afterAll(async () => {
  await repo.cleanup();
});

/** Every `path`-like property description that gives an example, with the example. */
function examples(tool: Tool): Array<{ property: string; example: string }> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
  return Object.entries(properties).flatMap(([property, schema]) => {
    const match = /e\.g\. "([^"]+)"/.exec(schema.description ?? '');
    return match === null ? [] : [{ property, example: match[1] as string }];
  });
}

describe.each(EXPLORE_TOOLS.map((tool) => [tool.name, tool] as const))('%s', (name, tool) => {
  it('gives an example for its path, and the example is what the tool takes', async () => {
    const found = examples(tool);
    expect(found.map((entry) => entry.property)).toEqual(['path']);
    for (const { example } of found) {
      const input = name === 'search' ? { pattern: 'export', path: example } : { path: example };
      const call = readToolCall(name, input, '');
      expect(call).not.toHaveProperty('invalid');
      const result = await explorer.run(call as Exclude<typeof call, { invalid: string }>, 16 * 1024);
      expect(result.error).toBeUndefined();
    }
  });
});

it('read_file gives a file as its example, the directory tools a directory', () => {
  const example = (name: string) => examples(EXPLORE_TOOLS.find((tool) => tool.name === name) as Tool)[0]?.example;
  expect(example('read_file')).toBe('src/index.ts');
  expect(example('list_directory')).toBe('src/lib');
  expect(example('search')).toBe('src/lib');
});
