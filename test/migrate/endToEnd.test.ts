/**
 * The end-to-end proof: each fixture server, migrated by `migrate`, built and called in process — on 2026-07-28
 * (MRTR: the host's model, scripted, answers input_required rounds), on 2025-11-25 (live sampling on a session),
 * and with a server-owned provider (a Chat Completions stand-in on 127.0.0.1) — gives the same results as the
 * original server on 2025-11-25. The original SDK v2 server, for contrast, cannot sample on 2026-07-28 at all.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrateDirectory } from '../../src/migrate/migrateDirectory.js';
import { chatCompletion, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';
import { callOnLegacySession, callOnModernRequest, layOutServer, scriptedAnswer } from './liveServers.js';
import { CLOCK_IN_PROMPT, V1_ONE_TOOL, V1_SEQUENCE_AND_LOOP, V2_REQUEST_SAMPLING, type FileMap } from './servers.js';

/** The kit's public entry: the migrated servers import it (by path here, as `mcp-model-input/tool` in the wild). */
const KIT_ENTRY = fileURLToPath(new URL('../../src/entries/tool.ts', import.meta.url));

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

/** The text of the last user message of a Chat Completions request. */
function lastUserText(body: {
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
}): string {
  const last = body.messages.filter((message) => message.role === 'user').at(-1);
  if (last === undefined) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((part) => part.text ?? '').join('');
}

let provider: FakeProvider;
beforeAll(async () => {
  // The provider answers as the scripted host model does, from the same prompt.
  provider = await startFakeProvider('openai', (body) => {
    const answer = scriptedAnswer({
      messages: [{ content: { type: 'text', text: lastUserText(body) } }],
      maxTokens: 1,
    });
    return { body: chatCompletion({ text: (answer.content as { text: string }).text }) };
  });
});
afterAll(() => provider.close());

/** The fixture, migrated in place; the kit import points at this project's entry, and the kit at `kitOptions`. */
async function migratedServer(files: FileMap, kitOptions?: string) {
  const laid = await layOutServer(files);
  const { changes, report } = await migrateDirectory(laid.dir);
  for (const change of changes) {
    let text = change.after.replace("from 'mcp-model-input/tool'", `from '${KIT_ENTRY}'`);
    if (kitOptions !== undefined)
      text = text.replace("createModelKit({ models: 'host' })", `createModelKit(${kitOptions})`);
    await writeFile(join(laid.dir, change.path), text);
  }
  return { ...laid, report };
}

function contentOf(result: unknown): unknown {
  return (result as { content: unknown }).content;
}

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

describe('migrated servers give the original results', () => {
  it.each(CASES)(
    '$name: on 2026-07-28 (MRTR), on 2025-11-25 (live), and with a server-owned provider',
    async (test) => {
      const original = await layOutServer(test.files);
      const host = await migratedServer(test.files);
      const owned = await migratedServer(
        test.files,
        `{ models: 'openai:fake-gpt', modelSpec: { env: { OPENAI_BASE_URL: '${provider.baseUrl}', OPENAI_API_KEY: 'test-key' } } }`,
      );
      try {
        expect(host.report.callSites.every((site) => site.status === 'migrated')).toBe(true);
        const before = await callOnLegacySession(join(original.dir, test.file), test.tool, test.args);
        expect(before.samples).toBe(test.samples);

        const modern = await callOnModernRequest(join(host.dir, test.file), test.tool, test.args);
        expect(modern.error).toBeUndefined();
        expect(modern.rounds).toBe(test.samples);
        expect(contentOf(modern.result)).toEqual(contentOf(before.result));

        const live = await callOnLegacySession(join(host.dir, test.file), test.tool, test.args);
        expect(live.samples).toBe(test.samples);
        expect(contentOf(live.result)).toEqual(contentOf(before.result));

        provider.reset();
        const inline = await callOnModernRequest(join(owned.dir, test.file), test.tool, test.args, { sampling: false });
        expect(inline.rounds).toBe(0);
        expect(provider.requests).toHaveLength(test.samples);
        expect(contentOf(inline.result)).toEqual(contentOf(before.result));
      } finally {
        await Promise.all([original.remove(), host.remove(), owned.remove()]);
      }
    },
  );

  it('Date.now() wrapped in ctx.once: every MRTR round asks the same question, and the call completes', async () => {
    const host = await migratedServer(CLOCK_IN_PROMPT);
    try {
      const modern = await callOnModernRequest(join(host.dir, 'server.ts'), 'standup_note', { done: 'the codemod' });
      expect(modern.error).toBeUndefined();
      expect(modern.rounds).toBe(1);
      expect(JSON.stringify(contentOf(modern.result))).toMatch(/answer\(\d+:Today is /);
    } finally {
      await host.remove();
    }
  });
});
