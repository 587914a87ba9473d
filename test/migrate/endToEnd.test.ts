/**
 * The fixture servers are real servers: before migration, each tool answers a 2025-11-25 client that samples
 * with a scripted model, in process, over the official SDK v1 client. These results are what the migrated
 * servers must give.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { callOnLegacySession, callOnModernRequest, layOutServer } from './liveServers.js';
import { V1_ONE_TOOL, V1_SEQUENCE_AND_LOOP, V2_REQUEST_SAMPLING, type FileMap } from './servers.js';

interface Case {
  name: string;
  files: FileMap;
  file: string;
  tool: string;
  args: Record<string, unknown>;
  samples: number;
}

const CASES: Case[] = [
  {
    name: 'SDK v1, one tool',
    files: V1_ONE_TOOL,
    file: 'src/server.ts',
    tool: 'draft_release_note',
    args: { changes: ['fix a', 'add b'] },
    samples: 1,
  },
  {
    name: 'SDK v1, two samples in sequence',
    files: V1_SEQUENCE_AND_LOOP,
    file: 'server.ts',
    tool: 'review_diff',
    args: { diff: '+ new line' },
    samples: 2,
  },
  {
    name: 'SDK v1, a sample in a loop',
    files: V1_SEQUENCE_AND_LOOP,
    file: 'server.ts',
    tool: 'refine_title',
    args: { title: 'Draft' },
    samples: 3,
  },
  {
    name: 'SDK v2, requestSampling',
    files: V2_REQUEST_SAMPLING,
    file: 'server.ts',
    tool: 'explain_term',
    args: { term: 'MRTR' },
    samples: 1,
  },
];

describe('the original fixture servers on 2025-11-25 (live sampling)', () => {
  it.each(CASES)('$name: the tool answers with the scripted model', async ({ files, file, tool, args, samples }) => {
    const { dir, remove } = await layOutServer(files);
    try {
      const out = await callOnLegacySession(join(dir, file), tool, args);
      expect(out.samples).toBe(samples);
      const [block] = (out.result as { content: Array<{ type: string; text: string }> }).content;
      expect(block?.text).toMatch(/^answer\(\d+:/);
    } finally {
      await remove();
    }
  });
});

describe('the original SDK v2 server on 2026-07-28', () => {
  it('cannot ask for sampling: the SDK refuses the server-to-client request (why the migration exists)', async () => {
    const { dir, remove } = await layOutServer(V2_REQUEST_SAMPLING);
    try {
      const out = await callOnModernRequest(join(dir, 'server.ts'), 'explain_term', { term: 'MRTR' });
      expect(out.rounds).toBe(0);
      expect(out.result).toMatchObject({ isError: true });
      expect(JSON.stringify(out.result)).toContain(
        'Server-to-client requests are not available on protocol revision 2026-07-28',
      );
    } finally {
      await remove();
    }
  });
});
