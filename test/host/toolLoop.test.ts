/**
 * The host runtime in a tool loop (tools in sampling, SEP-1577): it declares `sampling.tools` only
 * when a model can use tools (2026-07-28 per-request `_meta`, 2025-11-25 `initialize`), sends tool
 * rounds only to such a model, keeps its policies (approval, round cap), checks the
 * `tool_use`/`tool_result` pairing of what it is asked and what its model answers — against a
 * scripted 2026-07-28 server that runs the loop over MRTR, and a 2025-11-25 server (1.x SDK) that
 * runs it over live sampling.
 */

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';

import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { hostCapabilities } from '../../src/host/client.js';
import { createHost, type HostOptions } from '../../src/host/createHost.js';
import { isHostError, type HostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES, type HostModelEntry } from '../../src/host/policies/modelPolicy.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import { createScriptedModel, type ScriptedAnswer, type ScriptedModel } from '../../src/models/scripted.js';
import { parseHostModelSpec } from '../../src/host/hostModels.js';
import { complete, createHostileServer, inputRequired, type Scenario } from '../helpers/hostileServers.js';
import { chatCompletion, startFakeProvider } from '../models/fakeProviders.js';
import { capturedAuditLog, recordingApprover } from './hostFixtures.js';

const TOOLS = [
  { name: 'list_directory', description: 'List a directory.', inputSchema: { type: 'object' } },
  { name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' } },
];

type Message = { role: 'user' | 'assistant'; content: unknown };

interface LoopOptions {
  /** Rounds with tools before the server asks for the answer with toolChoice none. */
  toolRounds?: number;
  /** Spoils the conversation the server sends back (for the pairing checks). */
  spoil?: (messages: Message[]) => Message[];
}

/**
 * A 2026-07-28 server that runs a tool loop over MRTR: each round asks `explore` with the tools and
 * the conversation so far, answering every tool use with a `tool_result` (`contents of PATH`).
 */
function toolLoopScenario(options: LoopOptions = {}): Scenario & { asked: Array<Record<string, unknown>> } {
  const asked: Array<Record<string, unknown>> = [];
  let messages: Message[] = [{ role: 'user', content: { type: 'text', text: 'Explore, then summarize.' } }];
  const scenario = ((call, seen) => {
    if (call > 1) {
      const answer = seen.inputResponses?.['explore'] as { content: unknown } | undefined;
      const blocks = (Array.isArray(answer?.content) ? answer.content : [answer?.content]) as Array<{
        type: string;
        id?: string;
        input?: { path?: string };
        text?: string;
      }>;
      const uses = blocks.filter((block) => block.type === 'tool_use');
      if (uses.length === 0) return complete(`summary: ${blocks[0]?.text ?? ''}`);
      messages = [
        ...messages,
        { role: 'assistant', content: answer?.content },
        {
          role: 'user',
          content: uses.map((use) => ({
            type: 'tool_result',
            toolUseId: use.id,
            content: [{ type: 'text', text: `contents of ${use.input?.path ?? '?'}` }],
          })),
        },
      ];
    }
    const last = call > (options.toolRounds ?? 2);
    const params = {
      messages: options.spoil === undefined ? messages : options.spoil(messages),
      maxTokens: 300,
      tools: TOOLS,
      toolChoice: { mode: last ? 'none' : 'auto' },
    };
    asked.push(params);
    return inputRequired({ explore: { method: 'sampling/createMessage', params } }, `state-${call}`);
  }) as Scenario;
  return Object.assign(scenario, { asked });
}

const explorer = (extra: ScriptedAnswer[] = []) =>
  createScriptedModel({
    explore: [
      { text: 'Start at the top.', toolUse: [{ name: 'list_directory', input: { path: '.' } }] },
      {
        toolUse: [
          { name: 'read_file', input: { path: 'README.md' } },
          { name: 'read_file', input: { path: 'package.json' } },
        ],
      },
      ...extra,
      'A small TypeScript CLI.',
    ],
  });

const entry = (id: string, model: HostModelEntry['model']): HostModelEntry => ({
  id,
  model,
  ...TIER_ATTRIBUTES.balanced,
});

/** Hosts without the tasks extension: what is declared here is sampling (and sampling.tools) alone. */
function hostWith(models: HostModelEntry[], options: Partial<HostOptions> = {}) {
  return createHost({
    tasks: false,
    models,
    approver: recordingApprover(),
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    ...options,
  });
}

/** Runs one call against `scenario`, recording the `_meta` capabilities of every tools/call. */
async function run(scenario: Scenario, models: HostModelEntry[], options: Partial<HostOptions> = {}) {
  const server = createHostileServer(scenario);
  const declared: unknown[] = [];
  const approver = recordingApprover();
  const host = hostWith(models, { approver, ...options });
  const connection = await host.connect({
    kind: 'http',
    url: server.url,
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body)) as { method?: string; params?: { _meta?: Record<string, unknown> } };
      if (body.method === 'tools/call') {
        declared.push(body.params?._meta?.['io.modelcontextprotocol/clientCapabilities']);
      }
      return server.fetch(url, init);
    },
  });
  let error: HostError | undefined;
  let outcome: Awaited<ReturnType<typeof connection.callTool>> | undefined;
  try {
    outcome = await connection.callTool('summarize_repo', {});
  } catch (caught) {
    if (!isHostError(caught)) throw caught;
    error = caught;
  } finally {
    await connection.close();
  }
  return { outcome, error, server, declared, approver, host };
}

describe('the host declares sampling.tools only when a model can use tools', () => {
  it('declares it for a tool-using model (alone or beside one that cannot), never for models without tools', () => {
    const tools = explorer();
    expect(hostWith([entry('scripted', tools)]).capabilities).toEqual({ sampling: { tools: {} } });
    const text = () => createScriptedModel({ k: 'x' });
    expect(hostWith([entry('text', text()), entry('scripted', tools)]).capabilities).toEqual({
      sampling: { tools: {} },
    });
    expect(hostWith([entry('text', text()), entry('other', text())]).capabilities).toEqual({ sampling: {} });
    const builtin = createBuiltinModel();
    expect(hostWith([entry('builtin', builtin)]).capabilities).toEqual({
      sampling: builtin.usesTools === true ? { tools: {} } : {},
    });
    expect(hostWith([]).capabilities).toEqual({});
    expect(hostCapabilities({ model: tools, usesTools: true })).toEqual({ sampling: { tools: {} } });
  });

  it('2026-07-28: every tools/call carries sampling.tools in its _meta capabilities', async () => {
    const { declared } = await run(toolLoopScenario(), [entry('scripted', explorer())]);
    expect(declared.length).toBe(4);
    for (const capabilities of declared) expect(capabilities).toEqual({ sampling: { tools: {} } });
    const plain = await run(() => complete('no model needed'), [entry('text', createScriptedModel({ k: 'x' }))]);
    expect(plain.declared).toEqual([{ sampling: {} }]);
  });

  it('2025-11-25: initialize declares sampling.tools, and a live tool loop runs through the same policies', async () => {
    const server = new McpServer({ name: 'legacy-explorer', version: '1.0.0' });
    const seenToolChoices: unknown[] = [];
    server.registerTool('explore', { description: 'asks the client model with tools' }, async () => {
      const messages: Array<Record<string, unknown>> = [
        { role: 'user', content: { type: 'text', text: 'Explore, then summarize.' } },
      ];
      for (let turn = 1; turn <= 4; turn++) {
        const toolChoice = { mode: turn === 4 ? ('none' as const) : ('auto' as const) };
        seenToolChoices.push(toolChoice.mode);
        const answer = await server.server.createMessage({
          messages: messages as never,
          maxTokens: 200,
          tools: TOOLS as never,
          toolChoice,
        });
        const blocks = (Array.isArray(answer.content) ? answer.content : [answer.content]) as Array<{
          type: string;
          id?: string;
          text?: string;
        }>;
        const uses = blocks.filter((block) => block.type === 'tool_use');
        if (uses.length === 0) return { content: [{ type: 'text', text: `summary: ${blocks[0]?.text ?? ''}` }] };
        messages.push(
          { role: 'assistant', content: answer.content },
          {
            role: 'user',
            content: uses.map((use) => ({
              type: 'tool_result',
              toolUseId: use.id,
              content: [{ type: 'text', text: 'contents' }],
            })),
          },
        );
      }
      return { content: [{ type: 'text', text: 'no answer' }], isError: true };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const model = createScriptedModel({
      'sampling/createMessage': [
        { toolUse: [{ name: 'list_directory', input: { path: '.' } }] },
        { toolUse: [{ name: 'read_file', input: { path: 'README.md' } }] },
        'A small TypeScript CLI.',
      ],
    });
    const approver = recordingApprover();
    const traced: string[] = [];
    const host = hostWith([entry('scripted', model)], { approver, trace: (line) => traced.push(line) });
    const connection = await host.connect({ kind: 'transport', transport: clientSide, key: 'memory:legacy-explorer' });
    try {
      expect(connection.era).toBe('legacy');
      expect(server.server.getClientCapabilities()).toEqual({ sampling: { tools: {} } });
      const outcome = await connection.callTool('explore', {});
      expect(outcome.result.content).toEqual([{ type: 'text', text: 'summary: A small TypeScript CLI.' }]);
      expect(outcome.rounds).toBe(3);
      expect(seenToolChoices).toEqual(['auto', 'auto', 'auto']);
      expect(approver.rounds.map((round) => round.requests[0]?.params.tools?.map((tool) => tool.name))).toEqual([
        ['list_directory', 'read_file'],
        ['list_directory', 'read_file'],
        ['list_directory', 'read_file'],
      ]);
      // Round 3 asked with the whole loop so far: two uses, each answered.
      expect(model.calls[2]?.params.messages).toHaveLength(5);
      const live = traced.filter((line) => line.startsWith('<= ') && line.includes('sampling/createMessage'));
      expect(live.map((line) => line.replace(/^<= id=\S+ /, ''))).toEqual([
        'sampling/createMessage tools=[list_directory,read_file] toolChoice=auto calls=0',
        'sampling/createMessage tools=[list_directory,read_file] toolChoice=auto calls=1[list_directory .]',
        'sampling/createMessage tools=[list_directory,read_file] toolChoice=auto calls=2[list_directory .; read_file README.md]',
      ]);
      expect(
        traced.filter((line) => line.includes('result toolUse=')).map((line) => line.replace(/^-> id=\S+ /, '')),
      ).toEqual(['result toolUse=[list_directory .]', 'result toolUse=[read_file README.md]']);
    } finally {
      await connection.close();
    }
  });

  it('2025-11-25: a host whose model cannot use tools declares no sampling.tools at initialize', async () => {
    const server = new McpServer({ name: 'legacy-plain', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const connection = await hostWith([entry('text', createScriptedModel({ k: 'x' }))]).connect({
      kind: 'transport',
      transport: clientSide,
      key: 'memory:legacy-plain',
    });
    try {
      expect(server.server.getClientCapabilities()).toEqual({ sampling: {} });
    } finally {
      await connection.close();
    }
  });
});

describe('a tool loop over MRTR', () => {
  it('runs to the end: every round approved with its tools, the model sees the loop, the final round has no tools', async () => {
    const model = explorer();
    const scenario = toolLoopScenario({ toolRounds: 2 });
    const { outcome, approver } = await run(scenario, [entry('scripted', model)]);
    expect(outcome?.result.content).toEqual([{ type: 'text', text: 'summary: A small TypeScript CLI.' }]);
    expect(outcome?.rounds).toBe(3);
    expect(approver.rounds.map((round) => round.requests[0]?.params.toolChoice)).toEqual([
      { mode: 'auto' },
      { mode: 'auto' },
      { mode: 'none' },
    ]);
    expect(approver.rounds[0]?.requests[0]?.params.tools?.map((tool) => tool.name)).toEqual([
      'list_directory',
      'read_file',
    ]);
    // Round 3's conversation: the prompt, two uses (the second with two calls), each answered.
    expect(model.calls[2]?.params.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('the trace and the audit show the tools offered, the tool choice, the calls made and asked for; never results', async () => {
    const captured = await capturedAuditLog();
    const audit = captured.audit;
    const traced: string[] = [];
    const { outcome } = await run(toolLoopScenario({ toolRounds: 2 }), [entry('scripted', explorer())], {
      audit,
      trace: (line) => traced.push(line),
    });
    await audit.close();
    expect(outcome?.rounds).toBe(3);
    const asked = traced.filter((line) => line.includes('resultType=input_required'));
    expect(asked[0]).toContain('explore:tools=[list_directory,read_file] toolChoice=auto calls=0');
    expect(asked[1]).toContain('explore:tools=[list_directory,read_file] toolChoice=auto calls=1[list_directory .]');
    expect(asked[2]).toContain(
      'explore:tools=[list_directory,read_file] toolChoice=none calls=3[list_directory .; read_file README.md; read_file package.json]',
    );
    const answered = traced.filter((line) => line.includes('inputResponses=[explore]'));
    expect(answered[0]).toContain('explore:toolUse=[list_directory .]');
    expect(answered[1]).toContain('explore:toolUse=[read_file README.md; read_file package.json]');
    expect(answered[2]).not.toContain('toolUse');
    // Tool results and the model's text stay out of the trace.
    expect(traced.join('\n')).not.toMatch(/contents of|Start at the top|TypeScript CLI/);

    const lines = captured.lines();
    expect(lines.map((line) => [line['round'], line['decision'], line['toolCalls'], line['toolUse']])).toEqual([
      [1, 'approved', 'none', undefined],
      [1, 'fulfilled', undefined, 'list_directory .'],
      [2, 'approved', 'list_directory .', undefined],
      [2, 'fulfilled', undefined, 'read_file README.md; read_file package.json'],
      [3, 'approved', 'list_directory .; read_file README.md; read_file package.json', undefined],
      [3, 'fulfilled', undefined, undefined],
    ]);
    expect(lines[4]).toMatchObject({ tools: 'list_directory,read_file', toolChoice: 'none' });
    expect(captured.text()).not.toMatch(/contents of|Start at the top|TypeScript CLI/);
  });

  it('sends tool rounds only to a model that can use tools, even when another comes first', async () => {
    const builtin = createScriptedModel({ explore: 'I cannot use tools' }, { usesTools: false });
    const tools = explorer();
    const { outcome } = await run(toolLoopScenario(), [entry('plain', builtin), entry('tools', tools)]);
    expect(outcome?.result.content).toEqual([{ type: 'text', text: 'summary: A small TypeScript CLI.' }]);
    expect(builtin.calls).toHaveLength(0);
    expect(tools.calls).toHaveLength(3);
  });

  it('keeps the round cap: a loop longer than maxRounds stops with rounds_exceeded', async () => {
    const model = explorer(Array.from({ length: 10 }, () => ({ toolUse: [{ name: 'list_directory' }] })));
    const { error } = await run(toolLoopScenario({ toolRounds: 50 }), [entry('scripted', model)], { maxRounds: 3 });
    expect(error?.code).toBe('rounds_exceeded');
    expect(model.calls).toHaveLength(3);
  });

  it('refuses a round whose conversation drops a tool result, before calling the model', async () => {
    const model = explorer();
    const spoil = (messages: Message[]) =>
      messages.map((message, index) =>
        index === 4 && Array.isArray(message.content) ? { ...message, content: message.content.slice(1) } : message,
      );
    const { error } = await run(toolLoopScenario({ spoil }), [entry('scripted', model)]);
    expect(error?.code).toBe('request_invalid');
    expect(error?.message).toBe(
      'input "explore": messages[4] leaves tool use "toolu_scripted_2" of messages[3] without a result',
    );
    expect(error?.detail.round).toBe(3);
    expect(model.calls).toHaveLength(2);
  });

  it("refuses its own model's answer that calls a tool nobody offered or repeats an id, and audits it", async () => {
    const captured = await capturedAuditLog();
    const audit = captured.audit;
    const rogue: ScriptedModel = createScriptedModel({
      explore: { toolUse: [{ name: 'shell', input: { command: 'cat /etc/passwd' } }] },
    });
    const { error, server } = await run(toolLoopScenario(), [entry('rogue', rogue)], { audit });
    await audit.close();
    expect(error?.code).toBe('response_invalid');
    expect(error?.message).toBe(
      'input "explore": the model answer calls tool "shell", which the request did not offer',
    );
    expect(server.calls).toHaveLength(1);
    const lines = captured.lines();
    expect(lines.at(-1)).toMatchObject({
      key: 'explore',
      model: 'rogue',
      decision: 'refused',
      reason: 'response_invalid',
    });
    expect(captured.text()).not.toContain('passwd');

    const twice = createScriptedModel({
      explore: {
        toolUse: [
          { name: 'read_file', id: 'same' },
          { name: 'list_directory', id: 'same' },
        ],
      },
    });
    const repeated = await run(toolLoopScenario(), [entry('twice', twice)]);
    expect(repeated.error?.message).toBe('input "explore": the model answer uses tool use id "same" twice');
  });

  it('refuses a tool call under toolChoice none', async () => {
    const stubborn = createScriptedModel({ explore: { toolUse: [{ name: 'read_file', input: { path: 'a' } }] } });
    const { error, server } = await run(toolLoopScenario({ toolRounds: 0 }), [entry('stubborn', stubborn)]);
    expect(error?.code).toBe('response_invalid');
    expect(error?.message).toContain('toolChoice "none"');
    expect(server.calls).toHaveLength(1);
  });

  it('with a provider as the host model: native function calls out, tool_use blocks back, through every round', async () => {
    const provider = await startFakeProvider('openai', () => ({ body: chatCompletion({ text: 'A small CLI.' }) }));
    provider.enqueue({
      body: {
        ...chatCompletion({ text: '' }),
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_x', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
              ],
            },
          },
        ],
      },
    });
    try {
      const models = await parseHostModelSpec('openai:fake-gpt', {
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.baseUrl },
      });
      const { outcome, declared } = await run(toolLoopScenario({ toolRounds: 5 }), models);
      expect(declared[0]).toEqual({ sampling: { tools: {} } });
      expect(outcome?.result.content).toEqual([{ type: 'text', text: 'summary: A small CLI.' }]);
      expect(provider.requests).toHaveLength(2);
      const second = provider.requests[1]?.body as { messages: unknown[]; tools: unknown[]; tool_choice: string };
      expect(second.tool_choice).toBe('auto');
      expect(second.tools).toHaveLength(2);
      expect(second.messages.slice(-2)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_x', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_x', content: 'contents of README.md' },
      ]);
    } finally {
      await provider.close();
    }
  });
});
