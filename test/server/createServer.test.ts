import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { describeTools, toolsListResults } from '../../src/server/createServer.js';
import { defineTool } from '../../src/flows/tool.js';

const tool = (name: string) =>
  defineTool({
    name,
    title: name,
    description: `the ${name} tool`,
    inputSchema: z.object({ x: z.string().optional() }),
    outputSchema: z.object({ y: z.string() }),
    run: async () => ({ content: [] }),
  });

describe('tools/list results', () => {
  it('are sorted by name whatever the registration order', () => {
    expect(describeTools([tool('b'), tool('a'), tool('c')]).map((t) => t.name)).toEqual(['a', 'b', 'c']);
  });

  it('share nothing: mutating one result changes neither the next nor the descriptors', () => {
    const descriptors = describeTools([tool('a')]);
    const pristine = JSON.stringify(descriptors);
    const listTools = toolsListResults(descriptors);
    const first = listTools();
    first.tools[0]!.name = 'mutated';
    (first.tools[0]!.inputSchema.properties as Record<string, unknown>)['x'] = { type: 'number' };
    first.tools.push(tool('z') as never);
    const second = listTools();
    expect(JSON.stringify(second.tools)).toBe(pristine);
    expect(JSON.stringify(descriptors)).toBe(pristine);
  });
});

describe('tools without an output schema', () => {
  it('advertise none, so clients do not expect structured content', () => {
    const plain = defineTool({
      name: 'plain',
      title: 'plain',
      description: 'text only',
      inputSchema: z.object({}),
      run: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    });
    const [descriptor] = describeTools([plain]);
    expect(descriptor).not.toHaveProperty('outputSchema');
    expect(describeTools([tool('a')])[0]).toHaveProperty('outputSchema');
  });
});
