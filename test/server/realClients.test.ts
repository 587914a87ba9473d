/**
 * Real clients, answers the way real models write them: the official SDK client v2 pinned to
 * 2026-07-28 (MRTR, its own automatic retry) and the v1 client on 2025-11-25 (live sampling
 * requests), over stdio and HTTP (in-process), against `--model host` and `--model host,builtin`. On
 * stdio both clients run the `serve --stdio` command in-process (`main(argv, io)`; the real-process runs are
 * test/server/sdkClient.test.ts for the v2 client and test/legacy/stdio.test.ts for the v1 client). The host's
 * model is scripted: prose, fences, several arrays, an empty reply, a refusal, a declined round.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUILTIN_MODEL_NAME } from '../../src/flows/summarizeRepo/builtin/model.js';
import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { createTestFront } from '../helpers/servers.js';

/** What the scripted host model answers for each step; `DECLINE`: the user declines the round. */
interface Script {
  pick: string;
  summary: string;
}
const DECLINE = '<decline>';
/** The model repeats its prompt (the user message) as its answer. */
const ECHO = '<echo>';
const HOST_MODEL = 'scripted-host-model';
const SUMMARY = 'Sample Widget turns CSV files into charts.';

/** summarize_repo asks pick_files with the cost preference, the summary with the intelligence one. */
function scriptedAnswer(script: Script, params: { modelPreferences?: { costPriority?: number } }): string {
  return params.modelPreferences?.costPriority === 0.8 ? script.pick : script.summary;
}

type Era = 'v2 (2026-07-28)' | 'v1 (2025-11-25)';
type Kind = 'stdio' | 'http';

interface Peer {
  script: Script;
  call(args?: Record<string, unknown>): Promise<{ result?: any; error?: any }>;
  close(): Promise<void>;
}

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function serveArgs(model: string): string[] {
  return ['--model', model, '--root', repo.root, '--quiet'];
}

async function connectPeer(era: Era, kind: Kind, model: string): Promise<Peer> {
  const script: Script = { pick: '["README.md"]', summary: SUMMARY };
  const answer = (params: Record<string, any>) => {
    let text = scriptedAnswer(script, params);
    if (text === DECLINE) return undefined;
    if (text === ECHO) text = params.messages[0].content.text;
    return {
      role: 'assistant' as const,
      content: { type: 'text' as const, text },
      model: HOST_MODEL,
      stopReason: 'endTurn',
    };
  };
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );

  if (era === 'v2 (2026-07-28)') {
    const client = new ClientV2(
      { name: 'real-client-v2', version: '1.0.0' },
      { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const answered = answer(request.params);
      // A user who declines: the call ends in the client; the server never hears of it.
      if (answered === undefined) throw new Error('the user declined the sampling request');
      // A model that fails: the same, raised in the client.
      if (answered.content.text.startsWith('<error ')) throw new Error('model backend down');
      return answered;
    });
    const front = kind === 'http' ? createTestFront({ root: repo.root, model }) : undefined;
    const transport =
      front === undefined
        ? inProcessStdioTransport(serveArgs(model))
        : new HttpV2(new URL('http://localhost/mcp'), { fetch: (url, init) => front.fetch(new Request(url, init)) });
    await client.connect(transport);
    return {
      script,
      call: (args = {}) => settle(client.callTool({ name: 'summarize_repo', arguments: args })),
      close: async () => {
        await client.close();
        await front?.close();
      },
    };
  }

  const client = new ClientV1({ name: 'real-client-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const answered = answer(request.params as Record<string, any>);
    // 2025-11-25: the refusal reaches the server as error -1.
    if (answered === undefined) throw new McpError(-1, 'User rejected sampling request');
    // A host whose model fails answers an error of its own: the Python SDK code 0, fastmcp -32603.
    const failed = /^<error (-?\d+)>$/.exec(answered.content.text);
    if (failed !== null) throw new McpError(Number(failed[1]), 'model backend down');
    return answered;
  });
  const front = kind === 'http' ? createTestFront({ root: repo.root, model }) : undefined;
  const transport =
    front === undefined
      ? inProcessStdioTransport(serveArgs(model))
      : new HttpV1(new URL('http://localhost/mcp'), { fetch: (url, init) => front.fetch(new Request(url, init)) });
  await client.connect(transport);
  return {
    script,
    call: (args = {}) => settle(client.callTool({ name: 'summarize_repo', arguments: args })),
    close: async () => {
      await client.close();
      await front?.close();
    },
  };
}

const PROSE_PICK = 'Here are the files I picked:\n["README.md","package.json"]\nThey describe the project best.';
const FENCED_PICK = 'Sure!\n\n```json\n["./README.md", "docs\\\\guide.md"]\n```\n\nThese two files cover it.';
const TWO_ARRAYS = 'Either ["README.md"] or ["package.json", "src/index.ts"] would do.';
const REFUSAL = "I'm sorry, but I can't help with that.";

const texts = (result: any): string[] =>
  (result.content as Array<{ type: string; text?: string }>).filter((b) => b.type === 'text').map((b) => b.text ?? '');

describe.each([
  ['v2 (2026-07-28)', 'http'],
  ['v2 (2026-07-28)', 'stdio'],
  ['v1 (2025-11-25)', 'http'],
  ['v1 (2025-11-25)', 'stdio'],
] as const)('%s client over %s', (era, kind) => {
  describe('against --model host', () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await connectPeer(era, kind, 'host');
    });
    afterAll(async () => {
      await peer.close();
    });

    it('a pick in prose is accepted: the one JSON array of strings in it', async () => {
      Object.assign(peer.script, { pick: PROSE_PICK, summary: SUMMARY });
      const { result, error } = await peer.call({ maxFiles: 3 });
      expect(error).toBeUndefined();
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        picked: ['README.md', 'package.json'],
        dropped: [],
        pickedBy: 'model',
        model: HOST_MODEL,
        summary: SUMMARY,
        notes: [],
      });
    });

    it('a fenced pick with a remark after it: paths normalised (./ and backslashes) and validated', async () => {
      Object.assign(peer.script, { pick: FENCED_PICK, summary: SUMMARY });
      const { result, error } = await peer.call();
      expect(error).toBeUndefined();
      expect(result.structuredContent.picked).toEqual(['README.md', 'docs/guide.md']);
    });

    it.each([
      ['several different arrays', TWO_ARRAYS, 'more than one JSON array'],
      ['JSON of another shape', '{"files": ["README.md"]}', 'the answer is JSON but an object'],
      ['no array at all', 'I would read the README first.', 'no JSON array of file paths'],
    ])('%s: -32602 with the input key and the reason in data', async (_name, pick, reason) => {
      Object.assign(peer.script, { pick, summary: SUMMARY });
      const { result, error } = await peer.call();
      expect(result).toBeUndefined();
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ key: 'pick_files', reason: expect.stringContaining(reason) });
    });

    it.each([
      ['an empty reply', ''],
      ['a blank reply', ' \n\t '],
      ['a refusal', REFUSAL],
    ])('a summary that is %s: -32602 naming the summary input', async (_name, summary) => {
      Object.assign(peer.script, { pick: '["README.md"]', summary });
      const { error } = await peer.call();
      expect(error.code).toBe(-32602);
      expect(error.data.key).toBe('summary');
    });

    it('a summary with a preface and one enclosing fence is unwrapped; the fence inside it stays', async () => {
      const body = `# Sample Widget\n\nTurns CSV files into charts.\n\n\`\`\`sh\nnpm start\n\`\`\``;
      Object.assign(peer.script, {
        pick: '["README.md"]',
        summary: `Here is the summary:\n\n\`\`\`markdown\n${body}\n\`\`\``,
      });
      const { result, error } = await peer.call();
      expect(error).toBeUndefined();
      expect(result.structuredContent.summary).toBe(body);
      expect(texts(result)[0]).toBe(body);
    });

    it.each([
      ['pick_files', { pick: ECHO, summary: SUMMARY }],
      ['summary', { pick: '["README.md"]', summary: ECHO }],
    ])('an echo of the %s prompt is unusable: -32602 naming it', async (key, script) => {
      Object.assign(peer.script, script);
      const { result, error } = await peer.call();
      expect(result).toBeUndefined();
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ key, reason: expect.stringContaining('repeats the prompt') });
    });

    it('a model that fails with error 0: an isError result naming the code, not the SDK wording', async () => {
      Object.assign(peer.script, { pick: '<error 0>', summary: SUMMARY });
      const { result, error } = await peer.call();
      if (era === 'v2 (2026-07-28)') {
        expect(result).toBeUndefined();
        return;
      }
      expect(error).toBeUndefined();
      expect(result.isError).toBe(true);
      expect(texts(result).join('\n')).toContain(
        "the client's model could not answer the sampling request for 'pick_files' (error 0: model backend down)",
      );
      expect(texts(result).join('\n')).not.toContain('Fulfilling input required');
    });

    it('a declined round ends the call', async () => {
      Object.assign(peer.script, { pick: DECLINE, summary: SUMMARY });
      const { result, error } = await peer.call();
      if (era === 'v2 (2026-07-28)') {
        // The client ends it; the server never learns (see the host runtime's --on-deny).
        expect(result).toBeUndefined();
        expect(String(error?.message)).toContain('declined');
      } else {
        expect(error).toBeUndefined();
        expect(result.isError).toBe(true);
        expect(texts(result).join('\n')).toContain("refused the sampling request for 'pick_files'");
      }
    });
  });

  describe('against --model host,builtin', () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await connectPeer(era, kind, 'host,builtin');
    });
    afterAll(async () => {
      await peer.close();
    });

    it('an ambiguous pick is answered by the built-in model, and the notes say so', async () => {
      Object.assign(peer.script, { pick: TWO_ARRAYS, summary: SUMMARY });
      const { result, error } = await peer.call();
      expect(error).toBeUndefined();
      expect(result.isError).toBeFalsy();
      // The host's model still wrote the summary: only the pick step was replaced.
      expect(result.structuredContent.model).toBe(HOST_MODEL);
      expect(result.structuredContent.picked.length).toBeGreaterThan(0);
      expect(result.structuredContent.notes).toEqual([
        expect.stringContaining(`unusable answer for 'pick_files' (the answer holds more than one JSON array`),
      ]);
      expect(result.structuredContent.notes[0]).toContain(`(${BUILTIN_MODEL_NAME}) answered that step instead`);
      expect(texts(result).at(-1)).toBe(`Note: ${result.structuredContent.notes[0]}`);
    });

    it('an empty summary is written by the built-in model instead, and the notes say so', async () => {
      Object.assign(peer.script, { pick: PROSE_PICK, summary: '' });
      const { result, error } = await peer.call();
      expect(error).toBeUndefined();
      expect(result.structuredContent.model).toBe(BUILTIN_MODEL_NAME);
      expect(result.structuredContent.picked).toEqual(['README.md', 'package.json']);
      expect(result.structuredContent.summary.trim()).not.toBe('');
      expect(result.structuredContent.notes).toEqual([
        expect.stringContaining("unusable answer for 'summary' (the summary is empty)"),
      ]);
    });

    it.each([
      ['0 (the Python SDK when its sampling callback raises)', 0],
      ['-32603 (fastmcp)', -32603],
      ['-32000 (any other code)', -32000],
    ])('a model that fails, error %s: 2025-11-25 falls back with a note naming the code', async (_name, code) => {
      Object.assign(peer.script, { pick: `<error ${code}>`, summary: SUMMARY });
      const { result, error } = await peer.call();
      if (era === 'v2 (2026-07-28)') {
        // The client raises locally and ends the call; the server is never told.
        expect(result).toBeUndefined();
        expect(String(error?.message)).toContain('model backend down');
        return;
      }
      expect(error).toBeUndefined();
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.model).toBe(BUILTIN_MODEL_NAME);
      expect(result.structuredContent.notes).toEqual([
        expect.stringContaining(
          `could not answer the sampling request for 'pick_files' (error ${code}: model backend down)`,
        ),
      ]);
      expect(texts(result).join('\n')).not.toContain('Fulfilling input required');
    });

    it('an echo model: the built-in model answers both steps, and the notes say why', async () => {
      Object.assign(peer.script, { pick: ECHO, summary: ECHO });
      const { result, error } = await peer.call();
      expect(error).toBeUndefined();
      expect(result.structuredContent.model).toBe(BUILTIN_MODEL_NAME);
      expect(result.structuredContent.summary).not.toContain('<<<FILE');
      expect(result.structuredContent.notes).toEqual([
        expect.stringContaining("unusable answer for 'pick_files' (the answer repeats the prompt"),
        expect.stringContaining("unusable answer for 'summary' (the answer repeats the prompt"),
      ]);
    });

    it('a declined round: the 2025-11-25 server falls back; the 2026-07-28 client ends the call itself', async () => {
      Object.assign(peer.script, { pick: DECLINE, summary: SUMMARY });
      const { result, error } = await peer.call();
      if (era === 'v2 (2026-07-28)') {
        expect(result).toBeUndefined();
        expect(String(error?.message)).toContain('declined');
      } else {
        expect(error).toBeUndefined();
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent.model).toBe(BUILTIN_MODEL_NAME);
        expect(result.structuredContent.notes.at(-1)).toContain("refused the sampling request for 'pick_files'");
      }
    });
  });
});
