/**
 * Our host client (src/host/client.ts, what `summarize` and the conformance client use) against a
 * server written directly with the official `@modelcontextprotocol/server` — its own McpServer,
 * createMcpHandler and HMAC request-state codec — through two input_required rounds.
 */
import { randomBytes } from 'node:crypto';

import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  McpServer,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createHostClient } from '../../src/host/client.js';
import { clientTransport } from '../../src/host/target.js';
import type { CompletionModel } from '../../src/models/modelSource.js';

function sdkServer() {
  const codec = createRequestStateCodec<{ city: string }>({ key: randomBytes(32) });
  return createMcpHandler(
    () => {
      const server = new McpServer({ name: 'sdk-peer', version: '1.0.0' }, { requestState: { verify: codec.verify } });
      server.registerTool('plan_trip', { inputSchema: z.object({ days: z.number() }) }, async ({ days }, ctx) => {
        const state = ctx.mcpReq.requestState<{ city: string }>();
        if (state === undefined) {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, 'city', z.object({ city: z.string() }));
          if (answer === undefined) {
            return inputRequired({
              inputRequests: {
                city: inputRequired.elicit({
                  message: 'Which city?',
                  requestedSchema: z.object({ city: z.string() }),
                }),
              },
            });
          }
          return inputRequired({
            inputRequests: {
              itinerary: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: `Plan ${days} days in ${answer.city}` } }],
                maxTokens: 50,
              }),
            },
            requestState: await codec.mint({ city: answer.city }),
          });
        }
        const view = inputResponse(ctx.mcpReq.inputResponses, 'itinerary');
        const text =
          view.kind === 'sampling' && !Array.isArray(view.result.content) && view.result.content.type === 'text'
            ? view.result.content.text
            : '(no plan)';
        return { content: [{ type: 'text', text: `${state.city}: ${text}` }] };
      });
      return server;
    },
    { legacy: 'reject' },
  );
}

describe('our host client against an official SDK server', () => {
  it('answers elicitation then sampling across rounds and gets the complete result', async () => {
    const handler = sdkServer();
    const seen: Array<{ id: unknown; keys: string[]; state?: string }> = [];
    const model: CompletionModel = {
      name: 'scripted',
      complete: async (request) => ({
        role: 'assistant',
        content: { type: 'text', text: `plan for ${request.key}` },
        model: 'scripted',
      }),
    };
    const client = createHostClient({
      model,
      elicit: async () => ({ action: 'accept', content: { city: 'Lisbon' } }),
    });
    await client.connect(
      clientTransport({
        kind: 'http',
        url: 'http://localhost/mcp',
        fetch: async (url, init) => {
          const body = JSON.parse(String(init?.body)) as { id: unknown; method: string; params?: Record<string, any> };
          if (body.method === 'tools/call') {
            seen.push({
              id: body.id,
              keys: Object.keys(body.params?.['inputResponses'] ?? {}),
              ...(body.params?.['requestState'] !== undefined && { state: body.params['requestState'] }),
            });
          }
          return handler.fetch(new Request(url, init));
        },
      }),
    );
    const result = await client.callTool({ name: 'plan_trip', arguments: { days: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: 'Lisbon: plan for itinerary' }]);
    expect(seen.map((call) => call.keys)).toEqual([[], ['city'], ['itinerary']]);
    expect(new Set(seen.map((call) => call.id)).size).toBe(3);
    expect(seen[1]?.state).toBeUndefined();
    expect(typeof seen[2]?.state).toBe('string');
    await client.close();
    await handler.close();
  });

  it('declares only what it can answer', async () => {
    const { hostCapabilities } = await import('../../src/host/client.js');
    expect(hostCapabilities({})).toEqual({});
    expect(Object.keys(hostCapabilities({ roots: [] }))).toEqual(['roots']);
  });
});
