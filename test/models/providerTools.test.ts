/**
 * Tools in sampling (SEP-1577) through both provider adapters, against local servers speaking each
 * wire format: the exact request bodies (tools, tool choice, tool_use and tool_result turns), the
 * model's tool calls mapped back to `tool_use` blocks with `stopReason: "toolUse"` (several in one
 * turn), `toolChoice: none`, and the failures: arguments that are not a JSON object, tool calls
 * nobody offered, content a provider cannot take.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../../src/models/modelSource.js';
import { createAnthropicMessagesModel } from '../../src/models/providers/anthropicMessages.js';
import { createOpenAIChatModel } from '../../src/models/providers/openaiChat.js';
import { createProviderSource } from '../../src/models/providers/providerSources.js';
import { capturingLogger } from '../helpers/servers.js';
import {
  anthropicMessage,
  chatCompletion,
  fakeProviderForSuite,
  instantRetry,
  providerFailure,
} from './fakeProviders.js';

const LIST_SCHEMA = { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] };
const READ_SCHEMA = {
  type: 'object' as const,
  properties: { path: { type: 'string' }, startLine: { type: 'integer' } },
};

const tools: CreateMessageRequestParams['tools'] = [
  { name: 'list_directory', description: 'List one directory of the repository.', inputSchema: LIST_SCHEMA },
  { name: 'read_file', inputSchema: READ_SCHEMA },
];

/** A loop in progress: the model listed and read, the server answered both (one of them failed). */
function loop(mode?: 'auto' | 'required' | 'none'): CreateMessageRequestParams {
  return {
    systemPrompt: 'Explore the repository, then summarize it.',
    messages: [
      { role: 'user', content: { type: 'text', text: 'Summarize this repository.' } },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking around.' },
          { type: 'tool_use', id: 'tu_1', name: 'list_directory', input: { path: '.' } },
          { type: 'tool_use', id: 'tu_2', name: 'read_file', input: { path: 'MISSING.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'tu_1', content: [{ type: 'text', text: 'README.md\nsrc/' }] },
          {
            type: 'tool_result',
            toolUseId: 'tu_2',
            content: [{ type: 'text', text: 'no such file' }],
            isError: true,
          },
        ],
      },
    ],
    tools,
    ...(mode !== undefined && { toolChoice: { mode } }),
    maxTokens: 300,
  };
}

const plain: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Hello.' } }],
  maxTokens: 50,
};

function toolCallsAnswer(calls: Array<{ id?: string; name: string; arguments: string }>, finish = 'tool_calls') {
  return {
    id: 'chatcmpl-tools',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-gpt',
    choices: [
      {
        index: 0,
        finish_reason: finish,
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: calls.map((call) => ({
            ...(call.id !== undefined && { id: call.id }),
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        },
      },
    ],
    usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
  };
}

describe('openai: tools in sampling as function calling', () => {
  const provider = fakeProviderForSuite('openai', () => ({ body: chatCompletion({ text: 'A small CLI.' }) }));
  let model: CompletionModel;
  beforeAll(() => {
    model = createOpenAIChatModel({
      model: 'gpt-test',
      baseURL: provider.baseUrl,
      timeoutMs: 5000,
      retry: instantRetry(2).policy,
      logger: capturingLogger(),
    });
  });

  it('says it uses tools, also as a configured source before its SDK is loaded', () => {
    expect(model.usesTools).toBe(true);
    const configured = createProviderSource('openai:gpt-test', {
      env: { OPENAI_BASE_URL: provider.baseUrl },
      logger: capturingLogger(),
      timeoutMs: 1000,
      retry: instantRetry(0).policy,
    });
    expect(configured.usesTools).toBe(true);
    const tiered = createProviderSource('openai:small+large', {
      env: { OPENAI_BASE_URL: provider.baseUrl },
      logger: capturingLogger(),
      timeoutMs: 1000,
      retry: instantRetry(0).policy,
    });
    expect(tiered.usesTools).toBe(true);
  });

  it('sends tools, tool_choice, tool_calls and tool messages; maps several tool calls back to tool_use blocks', async () => {
    provider.enqueue({
      body: toolCallsAnswer([
        { id: 'call_a', name: 'read_file', arguments: '{"path":"README.md"}' },
        { id: 'call_b', name: 'list_directory', arguments: '{"path":"src"}' },
      ]),
    });
    const answer = await model.complete({ key: 'explore', params: loop('auto') });
    expect(answer).toEqual({
      role: 'assistant',
      model: 'fake-gpt',
      stopReason: 'toolUse',
      content: [
        { type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'call_b', name: 'list_directory', input: { path: 'src' } },
      ],
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]?.body).toEqual({
      model: 'gpt-test',
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'Explore the repository, then summarize it.' },
        { role: 'user', content: 'Summarize this repository.' },
        {
          role: 'assistant',
          content: 'Looking around.',
          tool_calls: [
            { id: 'tu_1', type: 'function', function: { name: 'list_directory', arguments: '{"path":"."}' } },
            { id: 'tu_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"MISSING.md"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'tu_1', content: 'README.md\nsrc/' },
        { role: 'tool', tool_call_id: 'tu_2', content: 'Error: no such file' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'list_directory',
            description: 'List one directory of the repository.',
            parameters: LIST_SCHEMA,
          },
        },
        { type: 'function', function: { name: 'read_file', parameters: READ_SCHEMA } },
      ],
      tool_choice: 'auto',
    });
  });

  it('toolChoice none: tool_choice "none", tools still described, the text answer ends the turn', async () => {
    const answer = await model.complete({ key: 'explore', params: loop('none') });
    expect(answer).toEqual({
      role: 'assistant',
      model: 'fake-gpt',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'A small CLI.' },
    });
    expect(provider.requests[0]?.body).toMatchObject({ tool_choice: 'none', tools: [{}, {}] });
  });

  it('toolChoice required maps to "required"; no toolChoice means auto', async () => {
    await model.complete({ key: 'explore', params: loop('required') });
    await model.complete({ key: 'explore', params: loop() });
    expect(provider.requests.map((request) => (request.body as { tool_choice?: unknown }).tool_choice)).toEqual([
      'required',
      'auto',
    ]);
  });

  it('a request without tools sends neither tools nor tool_choice', async () => {
    await model.complete({ key: 'summary', params: plain });
    expect(provider.requests[0]?.body).not.toHaveProperty('tools');
    expect(provider.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  it('text with the calls, a missing id, and finish_reason "stop" (some compatible servers): still toolUse', async () => {
    const body = toolCallsAnswer([{ name: 'list_directory', arguments: '{"path":"."}' }], 'stop');
    (body.choices[0]!.message as { content: string | null }).content = 'First the root.';
    provider.enqueue({ body });
    const answer = await model.complete({ key: 'explore', params: loop('auto') });
    expect(answer).toEqual({
      role: 'assistant',
      model: 'fake-gpt',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'First the root.' },
        { type: 'tool_use', id: 'call_1', name: 'list_directory', input: { path: '.' } },
      ],
    });
  });

  it.each([
    ['broken JSON', '{"path": '],
    ['a JSON array', '["README.md"]'],
    ['a JSON string', '"README.md"'],
    ['an object nested 30,000 deep', `${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}`],
  ])('arguments that are %s are a bad_response, not retried, naming no model text', async (_what, args) => {
    provider.enqueue({ body: toolCallsAnswer([{ id: 'c1', name: 'read_file', arguments: args }]) });
    const error = await providerFailure(model.complete({ key: 'explore', params: loop('auto') }));
    expect(error.failure).toBe('bad_response');
    expect(error.message).toBe('openai:gpt-test: tool call 1 has arguments that are not a JSON object');
    expect(error.message).not.toContain('README');
    expect(provider.requests).toHaveLength(1);
  });

  it('tool calls in answer to a request that offered no tools are a bad_response', async () => {
    provider.enqueue({ body: toolCallsAnswer([{ id: 'c1', name: 'read_file', arguments: '{}' }]) });
    const error = await providerFailure(model.complete({ key: 'summary', params: plain }));
    expect(error.failure).toBe('bad_response');
    expect(error.message).toContain('the request offered none');
  });

  it('refuses before sending: a tool_result that is not text, a tool_use in a user turn', async () => {
    const image: CreateMessageRequestParams = {
      ...loop('auto'),
      messages: [
        ...loop().messages.slice(0, 2),
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'tu_1',
              content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
            },
          ],
        },
      ],
    };
    const misplaced: CreateMessageRequestParams = {
      ...loop('auto'),
      messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'read_file', input: {} }] }],
    };
    expect(await providerFailure(model.complete({ key: 'explore', params: image }))).toMatchObject({
      failure: 'bad_request',
      message: "openai:gpt-test: only text is supported in tool results, got 'image'",
    });
    expect(await providerFailure(model.complete({ key: 'explore', params: misplaced }))).toMatchObject({
      failure: 'bad_request',
      message: 'openai:gpt-test: a tool_use block must be in an assistant message',
    });
    expect(provider.requests).toHaveLength(0);
  });
});

function toolUseMessage(content: unknown[], stop = 'tool_use') {
  return {
    id: 'msg_tools',
    type: 'message',
    role: 'assistant',
    model: 'fake-claude',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 200, output_tokens: 20 },
  };
}

describe('anthropic: tools in sampling as native tool use', () => {
  const provider = fakeProviderForSuite('anthropic', () => ({ body: anthropicMessage({ text: 'A small CLI.' }) }));
  let model: CompletionModel;
  beforeAll(() => {
    model = createAnthropicMessagesModel({
      model: 'claude-test',
      apiKey: 'sk-ant-test',
      baseURL: provider.baseUrl,
      timeoutMs: 5000,
      retry: instantRetry(2).policy,
      logger: capturingLogger(),
    });
  });

  it('says it uses tools, also as a configured source', () => {
    expect(model.usesTools).toBe(true);
    const configured = createProviderSource('anthropic:claude-test', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      logger: capturingLogger(),
      timeoutMs: 1000,
      retry: instantRetry(0).policy,
    });
    expect(configured.usesTools).toBe(true);
  });

  it('sends tools, tool_choice, tool_use and tool_result blocks; maps several tool uses back', async () => {
    provider.enqueue({
      body: toolUseMessage([
        { type: 'text', text: 'Reading two files.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'package.json', startLine: 1 } },
      ]),
    });
    const answer = await model.complete({ key: 'explore', params: loop('auto') });
    expect(answer).toEqual({
      role: 'assistant',
      model: 'fake-claude',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Reading two files.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'package.json', startLine: 1 } },
      ],
    });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]?.body).toEqual({
      model: 'claude-test',
      max_tokens: 300,
      system: 'Explore the repository, then summarize it.',
      messages: [
        { role: 'user', content: 'Summarize this repository.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking around.' },
            { type: 'tool_use', id: 'tu_1', name: 'list_directory', input: { path: '.' } },
            { type: 'tool_use', id: 'tu_2', name: 'read_file', input: { path: 'MISSING.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'tu_1', content: 'README.md\nsrc/' },
            { type: 'tool_result', tool_use_id: 'tu_2', content: 'no such file', is_error: true },
          ],
        },
      ],
      tools: [
        { name: 'list_directory', description: 'List one directory of the repository.', input_schema: LIST_SCHEMA },
        { name: 'read_file', input_schema: READ_SCHEMA },
      ],
      tool_choice: { type: 'auto' },
    });
  });

  it('toolChoice none and required map to {type:"none"} and {type:"any"}; the text answer ends the turn', async () => {
    const answer = await model.complete({ key: 'explore', params: loop('none') });
    expect(answer).toEqual({
      role: 'assistant',
      model: 'fake-claude',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'A small CLI.' },
    });
    await model.complete({ key: 'explore', params: loop('required') });
    expect(provider.requests.map((request) => (request.body as { tool_choice?: unknown }).tool_choice)).toEqual([
      { type: 'none' },
      { type: 'any' },
    ]);
  });

  it('a request without tools sends neither tools nor tool_choice', async () => {
    await model.complete({ key: 'summary', params: plain });
    expect(provider.requests[0]?.body).not.toHaveProperty('tools');
    expect(provider.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['a string', '{"path":"README.md"}'],
    ['an array', ['README.md']],
    ['missing', undefined],
  ])('input that is %s is a bad_response, not retried', async (_what, input) => {
    provider.enqueue({ body: toolUseMessage([{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input }]) });
    const error = await providerFailure(model.complete({ key: 'explore', params: loop('auto') }));
    expect(error.failure).toBe('bad_response');
    expect(error.message).toBe('anthropic:claude-test: tool call 1 has arguments that are not a JSON object');
    expect(provider.requests).toHaveLength(1);
  });

  it('a tool use without a name, or in answer to a request without tools, is a bad_response', async () => {
    provider.enqueue({ body: toolUseMessage([{ type: 'tool_use', id: 'toolu_1', input: {} }]) });
    expect(await providerFailure(model.complete({ key: 'explore', params: loop('auto') }))).toMatchObject({
      failure: 'bad_response',
      message: 'anthropic:claude-test: tool call 1 names no tool',
    });
    provider.enqueue({ body: toolUseMessage([{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }]) });
    expect(await providerFailure(model.complete({ key: 'summary', params: plain }))).toMatchObject({
      failure: 'bad_response',
      message: 'anthropic:claude-test: the model called a tool, but the request offered none',
    });
  });

  it('refuses a tool_result in an assistant turn before sending', async () => {
    const misplaced: CreateMessageRequestParams = {
      ...loop('auto'),
      messages: [
        { role: 'user', content: { type: 'text', text: 'Go.' } },
        { role: 'assistant', content: [{ type: 'tool_result', toolUseId: 'tu_1', content: [] }] },
      ],
    };
    expect(await providerFailure(model.complete({ key: 'explore', params: misplaced }))).toMatchObject({
      failure: 'bad_request',
      message: 'anthropic:claude-test: a tool_result block must be in a user message',
    });
    expect(provider.requests).toHaveLength(0);
  });
});
