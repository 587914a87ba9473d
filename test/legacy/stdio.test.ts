/**
 * The legacy adapter on stdio: `serve --stdio` and the 1.x SDK client (2025-11-25), which initializes and
 * answers live sampling requests. summarize_repo runs the same flow as on 2026-07-28, with the same prompts;
 * refusals, missing sampling and the sample limit are tool results. The first test runs a real process
 * (the SDK's stdio transport spawning the built CLI); the others run the same command in-process.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLING_DEPRECATION_WARNING } from '../../src/legacy/deprecation.js';
import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { CLI, mcpRequest, meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import {
  HOST_MODEL,
  HOST_PICK,
  HOST_SUMMARY,
  legacyPeer,
  texts,
  withoutMeta,
  type SamplingMode,
} from './legacyPeer.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

/** The 1.x client on `serve --stdio`: in-process by default, or a real `dist/cli.js` process. */
async function connect(mode: SamplingMode, args: string[] = [], how: 'in-process' | 'process' = 'in-process') {
  const serveArgs = ['--root', repo.root, '--model', 'host', ...args];
  const peer = legacyPeer(mode);
  if (how === 'in-process') {
    const transport = inProcessStdioTransport(serveArgs);
    await peer.client.connect(transport);
    return { ...peer, stderr: () => transport.stderr(), close: () => peer.client.close() };
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', ...serveArgs],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await peer.client.connect(transport);
  return { ...peer, stderr: () => stderr, close: () => peer.client.close() };
}

/** The sampling params a 2026-07-28 client gets in `input_required` for the same repository. */
async function modernRounds(): Promise<Array<Record<string, any>>> {
  const front = createTestFront({ root: repo.root });
  const call = (id: number, extra: Record<string, unknown> = {}) =>
    front.fetch(
      mcpRequest('http://localhost/mcp', {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
      }),
    );
  const first = (await (await call(1)).json()).result;
  const answer = { role: 'assistant', content: { type: 'text', text: HOST_PICK }, model: HOST_MODEL };
  const second = (
    await (await call(2, { requestState: first.requestState, inputResponses: { pick_files: answer } })).json()
  ).result;
  await front.close();
  return [first.inputRequests.pick_files.params, second.inputRequests.summary.params];
}

describe('a 2025-11-25 client on stdio', () => {
  it('runs summarize_repo with live sampling requests carrying the MRTR prompts and preferences (a real process)', async () => {
    const peer = await connect('answer', [], 'process');
    expect(peer.client.getServerVersion()?.name).toBe('mcp-model-input');
    expect((await peer.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'ask_repo',
      'review_changes',
      'summarize_repo',
    ]);

    const result = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual([HOST_SUMMARY]);
    const structured = result.structuredContent as { picked: string[]; model: string; pickedBy: string };
    expect(structured).toMatchObject({ picked: ['README.md', 'package.json'], model: HOST_MODEL, pickedBy: 'model' });

    expect(peer.samples).toHaveLength(2);
    const [pick, summary] = peer.samples;
    expect(pick).toMatchObject({
      modelPreferences: { costPriority: 0.8, intelligencePriority: 0.2 },
      includeContext: 'none',
      maxTokens: 400,
    });
    expect(summary).toMatchObject({ includeContext: 'none', modelPreferences: { intelligencePriority: 0.8 } });
    expect(summary?.['maxTokens']).toBeGreaterThan(0);
    // Written once: the live requests are the embedded requests a 2026-07-28 client gets.
    const [modernPick, modernSummary] = await modernRounds();
    expect(withoutMeta(pick)).toEqual(modernPick);
    expect(withoutMeta(summary)).toEqual(modernSummary);

    // A second call on the same connection: served again, and the deprecation warning is not repeated.
    const again = await peer.client.callTool({ name: 'summarize_repo', arguments: { audience: 'maintainer' } });
    expect(again.isError).toBeFalsy();
    expect(peer.samples).toHaveLength(4);
    await peer.close();
    expect(peer.stderr().split(SAMPLING_DEPRECATION_WARNING)).toHaveLength(2);
  });

  it('a rejected sampling request (-1) ends the call with an isError result naming it', async () => {
    const peer = await connect('reject');
    const result = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    await peer.close();
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain(
      "the client refused the sampling request for 'pick_files' (error -1: User rejected sampling request)",
    );
    expect(peer.samples).toHaveLength(1);
  });

  it('after a rejection the flow continues on a server-owned model listed after host, and says so', async () => {
    const peer = await connect('reject', ['--model', 'host,builtin']);
    const result = await peer.client.callTool({ name: 'summarize_repo', arguments: {} });
    await peer.close();
    expect(result.isError).toBeFalsy();
    expect(peer.samples).toHaveLength(1);
    expect((result.structuredContent as { model: string }).model).toBe('mcp-model-input/builtin-heuristic');
    expect(texts(result).at(-1)).toContain(
      "answered in place of the client's: the client refused the sampling request for 'pick_files'",
    );
  });

  it('a client without sampling gets an isError result, or the server-owned model with a note', async () => {
    const refused = await connect('undeclared');
    const result = await refused.client.callTool({ name: 'summarize_repo', arguments: {} });
    await refused.close();
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain('the client did not declare the sampling capability at initialize');
    expect(refused.stderr()).not.toContain(SAMPLING_DEPRECATION_WARNING);

    const fallback = await connect('undeclared', ['--model', 'host,builtin']);
    const served = await fallback.client.callTool({ name: 'summarize_repo', arguments: {} });
    await fallback.close();
    expect(served.isError).toBeFalsy();
    expect(texts(served).at(-1)).toContain('did not declare the sampling capability at initialize');
  });

  it('--max-samples-per-call: past the limit the call is an isError result; the count is per call', async () => {
    const limited = await connect('answer', ['--max-samples-per-call', '1']);
    const result = await limited.client.callTool({ name: 'summarize_repo', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain('allows 1 per tool call (1 sent)');
    expect(limited.samples).toHaveLength(1);
    await limited.close();

    const two = await connect('answer', ['--max-samples-per-call', '2']);
    for (const audience of ['developer', 'maintainer']) {
      const served = await two.client.callTool({ name: 'summarize_repo', arguments: { audience } });
      expect(served.isError).toBeFalsy();
    }
    expect(two.samples).toHaveLength(4);
    await two.close();
  });

  it('--legacy off refuses initialize', async () => {
    await expect(connect('answer', ['--legacy', 'off'])).rejects.toThrow(
      /-32022: Unsupported protocol version: 2025-11-25/,
    );
  });
});
