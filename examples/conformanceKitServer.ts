/**
 * A second fixture for the official conformance suite: the official SDK's own `McpServer` (served by its
 * `createMcpHandler`), with the suite's MRTR tools written on the kit (`defineModelTool`, `ctx.sample`, `ctx.elicit`)
 * and registered with `registerModelTool` — what a tool author who keeps the SDK's server gets. `npm run conformance`
 * runs the MRTR scenarios a kit tool can serve against it (scripts/conformance.mjs: KIT_SCENARIOS).
 *
 * Usage: npx tsx examples/conformanceKitServer.ts [--port N]   (prints `listening <url>` when ready)
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import { createMcpHandler, McpServer, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { createModelKit, defineModelTool, registerModelTool } from '../src/entries/tool.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const noArgs = z.object({});
const form = (message: string, property: string, type: 'string' | 'boolean' = 'string'): ElicitRequestFormParams => ({
  mode: 'form',
  message,
  requestedSchema: {
    type: 'object',
    properties: { [property]: type === 'boolean' ? { type: 'boolean' } : { type: 'string' } },
    required: [property],
  },
});
const valueOf = (result: { action: string; content?: Record<string, unknown> }): string =>
  result.action === 'accept' ? Object.values(result.content ?? {}).join(', ') : result.action;

/** A tool that asks for one confirmation (a round with sealed state), then answers `done`. */
const confirmTool = (name: string, what: string, done: string) =>
  defineModelTool({
    name,
    description: `Conformance fixture (kit): ${what}`,
    input: noArgs,
    steps: {},
    run: async (_args, ctx) => {
      await ctx.elicit('confirm', form('Please confirm', 'ok', 'boolean'));
      return done;
    },
  });

const tools = [
  defineModelTool({
    name: 'test_input_required_result_elicitation',
    description: 'Conformance fixture (kit): asks the user for a name',
    input: noArgs,
    steps: {},
    run: async (_args, ctx) => `Hello, ${valueOf(await ctx.elicit('user_name', form('What is your name?', 'name')))}!`,
  }),
  defineModelTool({
    name: 'test_input_required_result_sampling',
    description: "Conformance fixture (kit): one question for the client's model",
    input: noArgs,
    steps: { capital_question: { modelPreferences: 'omit' } },
    run: async (_args, ctx) => {
      const answer = await ctx.sample('capital_question', {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      });
      return `The model answered: ${answer.text}`;
    },
  }),
  confirmTool(
    'test_input_required_result_request_state',
    'one confirmation carried in sealed state',
    'state-ok: the sealed requestState verified and carried this call',
  ),
  defineModelTool({
    name: 'test_input_required_result_multi_round',
    description: 'Conformance fixture (kit): two rounds, one question each',
    input: noArgs,
    steps: {},
    run: async (_args, ctx) => {
      const name = valueOf(await ctx.elicit('step1', form('Step 1: What is your name?', 'name')));
      const color = valueOf(await ctx.elicit('step2', form('Step 2: What is your favorite color?', 'color')));
      return `${name} likes ${color}`;
    },
  }),
  confirmTool('test_input_required_result_tampered_state', 'refuses a state the client altered', 'state verified'),
];

// The client's model answers every question (`host`): the suite plays the client.
const kit = createModelKit({ models: 'host' });
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'mcp-model-input-kit-conformance-fixture', version: '1.0.0' });
  for (const tool of tools) registerModelTool(server, tool, kit);
  return server;
});

const http = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('end', () => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const body = incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : Buffer.concat(chunks);
    void handler
      .fetch(
        new Request(`http://${incoming.headers.host ?? '127.0.0.1'}${incoming.url ?? '/'}`, {
          method: incoming.method,
          headers,
          body,
        }),
      )
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        outgoing.writeHead(500).end(String(error));
      });
  });
});
http.listen(Number(values.port), '127.0.0.1', () => {
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : Number(values.port);
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => http.close(() => process.exit(0)));
}
