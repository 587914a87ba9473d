/** A call whose sealed state would exceed the token cap ends with a clear tool error, not -32603. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';

const deep = (n: number) => `${['a', 'b', 'c'].map((c) => `${c}${n}`.padEnd(240, c)).join('/')}/file-${n}.md`;
let repo: FixtureRepo;
beforeAll(async () => {
  const files: Record<string, string> = { 'README.md': '# r\n' };
  for (let n = 0; n < 8; n++) files[deep(n)] = `# file ${n}\n`;
  repo = await makeTree(files);
});
afterAll(async () => {
  await repo.cleanup();
});

describe('sealed state size', () => {
  it('ends the call with an isError result when the next state cannot be sealed', async () => {
    const channel = httpChannel(createTestFront({ root: repo.root }));
    const args = { maxFiles: 8 };
    const params = { name: 'summarize_repo', arguments: args, _meta: meta({ sampling: {} }) };
    const first = await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    const paths = Array.from({ length: 8 }, (_, n) => deep(n));
    expect(paths.every((path) => path.length > 700 && path.length <= 1024)).toBe(true);
    const second = await channel.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        ...params,
        requestState: first.message?.['result'].requestState,
        inputResponses: {
          pick_files: { role: 'assistant', content: { type: 'text', text: JSON.stringify(paths) }, model: 'm' },
        },
      },
    });
    expect(second.message?.['error']).toBeUndefined();
    expect(second.message?.['result'].isError).toBe(true);
    expect(second.message?.['result'].content[0].text).toContain('too large');
    await channel.close();
  });
});
