/**
 * `serve --model-preferences omit`: the sampling requests sent to the host carry no `modelPreferences`, on both
 * revisions and both transports — checked on the requests as the real SDK clients recorded them. The host stands
 * in for fast-agent 0.10 with an OpenAI-compatible model, which fails every request that carries them ("unexpected
 * keyword argument 'model_preferences'"): with the flag it is served on its own model (docs/model-sources.md,
 * "Known host issues").
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { withModelPreferences } from '../../src/server/modelPreferences.js';
import { inProcessStdioTransport } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { createTestFront } from '../helpers/servers.js';

const HOST_MODEL = 'fast-agent-like';
const FAST_AGENT_ERROR = "AsyncCompletions.create() got an unexpected keyword argument 'model_preferences'";

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

/** A host like fast-agent 0.10: records each sampling request, fails the ones that carry modelPreferences. */
function fastAgentLike(recorded: Array<Record<string, unknown>>, fail: (message: string) => Error) {
  return (params: Record<string, unknown>) => {
    recorded.push(params);
    if ('modelPreferences' in params) throw fail(FAST_AGENT_ERROR);
    const pick = recorded.length === 1;
    return {
      role: 'assistant' as const,
      content: { type: 'text' as const, text: pick ? '["README.md"]' : 'Sample Widget turns CSV files into charts.' },
      model: HOST_MODEL,
      stopReason: 'endTurn',
    };
  };
}

type Era = 'v2 (2026-07-28)' | 'v1 (2025-11-25)';

async function callOnce(era: Era, kind: 'stdio' | 'http', mode: 'send' | 'omit') {
  const recorded: Array<Record<string, unknown>> = [];
  const front =
    kind === 'http' ? createTestFront({ root: repo.root, model: 'host', modelPreferences: mode }) : undefined;
  const serveArgs = ['--root', repo.root, '--model', 'host', '--model-preferences', mode, '--quiet'];
  const fetch = (url: string | URL, init?: RequestInit) =>
    (front as NonNullable<typeof front>).fetch(new Request(url, init));
  let call: () => Promise<any>;
  let close: () => Promise<void>;
  if (era === 'v2 (2026-07-28)') {
    const client = new ClientV2(
      { name: 'fast-agent-like', version: '0.10.9' },
      { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const answer = fastAgentLike(recorded, (message) => new Error(message));
    client.setRequestHandler('sampling/createMessage', async (request) =>
      answer(request.params as Record<string, unknown>),
    );
    await client.connect(
      front === undefined ? inProcessStdioTransport(serveArgs) : new HttpV2(new URL('http://localhost/mcp'), { fetch }),
    );
    call = () => client.callTool({ name: 'summarize_repo', arguments: {} });
    close = () => client.close();
  } else {
    const client = new ClientV1({ name: 'fast-agent-like', version: '0.10.9' }, { capabilities: { sampling: {} } });
    // Its Python SDK answers an exception in the sampling callback with code 0.
    const answer = fastAgentLike(recorded, (message) => new McpError(0, message));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) =>
      answer(request.params as Record<string, unknown>),
    );
    await client.connect(
      front === undefined ? inProcessStdioTransport(serveArgs) : new HttpV1(new URL('http://localhost/mcp'), { fetch }),
    );
    call = () => client.callTool({ name: 'summarize_repo', arguments: {} });
    close = () => client.close();
  }
  const outcome = await call().then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  await close();
  await front?.close();
  return { ...outcome, recorded };
}

describe.each([
  ['v2 (2026-07-28)', 'stdio'],
  ['v2 (2026-07-28)', 'http'],
  ['v1 (2025-11-25)', 'stdio'],
  ['v1 (2025-11-25)', 'http'],
] as const)('%s client over %s', (era, kind) => {
  it('--model-preferences omit: no request carries modelPreferences, and the host serves the call', async () => {
    const { result, error, recorded } = await callOnce(era, kind, 'omit');
    expect(error).toBeUndefined();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.model).toBe(HOST_MODEL);
    expect(recorded).toHaveLength(2);
    for (const params of recorded) {
      expect(params).not.toHaveProperty('modelPreferences');
      // Everything else of the request is as before.
      expect(params).toMatchObject({
        includeContext: 'none',
        maxTokens: expect.any(Number),
        systemPrompt: expect.any(String),
      });
    }
  });

  it('by default (send) the requests carry modelPreferences, and such a host fails', async () => {
    const { result, error, recorded } = await callOnce(era, kind, 'send');
    expect(recorded[0]).toHaveProperty('modelPreferences', { costPriority: 0.8, intelligencePriority: 0.2 });
    if (era === 'v2 (2026-07-28)') {
      expect(String((error as Error | undefined)?.message)).toContain('model_preferences');
    } else {
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('(error 0: ');
    }
  });
});

it('withModelPreferences takes them off sampling requests only, and leaves complete results alone', () => {
  const asked = {
    resultType: 'input_required' as const,
    inputRequests: {
      pick_files: {
        method: 'sampling/createMessage' as const,
        params: { messages: [], maxTokens: 10, modelPreferences: { costPriority: 1 } },
      },
      confirm: {
        method: 'elicitation/create' as const,
        params: { message: 'ok?', requestedSchema: { type: 'object' as const, properties: {} } },
      },
    },
    requestState: 'sealed',
  };
  const omitted = withModelPreferences(asked as never, 'omit') as typeof asked;
  expect(omitted.inputRequests.pick_files.params).toEqual({ messages: [], maxTokens: 10 });
  expect(omitted.inputRequests.confirm).toEqual(asked.inputRequests.confirm);
  expect(omitted.requestState).toBe('sealed');
  expect(withModelPreferences(asked as never, 'send')).toBe(asked);
  const complete = { content: [{ type: 'text' as const, text: 'done' }] };
  expect(withModelPreferences(complete, 'omit')).toBe(complete);
});
