/**
 * The public library surface: a tool written against `mcp-model-input`'s exports (not the
 * summarize_repo internals) serves over the HTTP front with the same engine and state codec.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import * as library from '../src/entries/server.js';
import { httpChannel, meta } from './helpers/rawChannel.js';

describe('public surface: mcp-model-input/server', () => {
  it('exports named values only, including the pieces a tool author needs', () => {
    for (const name of [
      'createServerFactory',
      'createHttpFront',
      'serveStdioFront',
      'defineTool',
      'runFlow',
      'createStateCodec',
      'createKeyRing',
      'parseModelSpec',
      'createBuiltinModel',
      'openRepository',
      'createModelInputServer',
      'createLegacyEra',
    ]) {
      expect(typeof (library as Record<string, unknown>)[name]).toBe('function');
    }
    expect('default' in library).toBe(false);
  });

  it('a custom one-step flow runs MRTR rounds through the exported engine', async () => {
    const codec = library.createStateCodec<library.SealedFlow<unknown>>({ keyRing: library.createEphemeralKeyRing() });
    type State = { phase: 'ask' };
    const flow: library.FlowDefinition<{ topic: string }, State> = {
      tool: 'haiku',
      keys: ['poem'],
      initial: () => ({ phase: 'ask' }),
      step: () => ({
        key: 'poem',
        prepare: async (args) => ({
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: `haiku on ${args.topic}` } }],
            maxTokens: 60,
          },
        }),
        accept: async (_args, _state, answer) => ({
          done: { content: [{ type: 'text', text: library.answerText(answer) }], isError: false },
        }),
      }),
    };
    const tool = library.defineTool({
      name: 'haiku',
      title: 'Haiku',
      description: 'Asks the host model for a haiku.',
      inputSchema: z.object({ topic: z.string() }),
      outputSchema: z.object({}),
      run: (args, ctx) =>
        library.runFlow(flow, args, ctx, {
          codec,
          models: library.parseModelSpec('host'),
          logger: library.silentLogger,
        }),
    });
    const front = library.createHttpFront({
      factory: library.createServerFactory({
        identity: { name: 'haiku-server', version: '1.0.0' },
        tools: [tool],
        resolvePrincipal: () => 'tester',
      }),
      logger: library.silentLogger,
      allowedHosts: ['localhost'],
      allowedOrigins: [],
    });
    const channel = httpChannel(front);
    const params = { name: 'haiku', arguments: { topic: 'rain' }, _meta: meta({ sampling: {} }) };
    const first = await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    expect(first.message?.['result'].inputRequests.poem.params.messages[0].content.text).toBe('haiku on rain');
    const second = await channel.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        ...params,
        requestState: first.message?.['result'].requestState,
        inputResponses: { poem: { role: 'assistant', content: { type: 'text', text: 'soft rain' }, model: 'm' } },
      },
    });
    expect(second.message?.['result'].content[0].text).toBe('soft rain');
    await channel.close();
  });
});
