/**
 * A call whose journal would not fit the sealed token inline spills its largest entries to the store (kit/journal.ts)
 * and goes on: long paths in the pick never make the call fail.
 */
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
  it('spills what does not fit the token to the store, and the call completes', async () => {
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
    const asked = second.message?.['result'];
    expect(asked.resultType).toBe('input_required');
    expect(Object.keys(asked.inputRequests)).toEqual(['summary']);
    // The picked paths alone are over 6 KiB: inline they would not fit the 8 KiB token with the rest.
    expect(asked.requestState.length).toBeLessThanOrEqual(8192);
    const third = await channel.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        ...params,
        requestState: asked.requestState,
        inputResponses: { summary: { role: 'assistant', content: { type: 'text', text: 'A summary.' }, model: 'm' } },
      },
    });
    expect(third.message?.['error']).toBeUndefined();
    expect(third.message?.['result'].isError).not.toBe(true);
    expect(third.message?.['result'].structuredContent.picked).toEqual(paths);
    await channel.close();
  });
});
