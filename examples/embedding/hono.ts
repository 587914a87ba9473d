/**
 * Mounting the server in an existing Hono app: the HTTP front is a web-standard `fetch` handler, so
 * one route hands it the raw request. Bearer tokens map to principals (each principal's request
 * state is bound to it); without a known token the front answers 401 before anything else runs.
 *
 *   tsx examples/embedding/hono.ts DIR        (serves DIR at http://127.0.0.1:PORT/mcp)
 */
import { fileURLToPath } from 'node:url';

import { serve } from '@hono/node-server';
import { Hono } from 'hono';

import {
  createEphemeralKeyRing,
  createModelInputHttpFront,
  createModelInputServer,
  createStderrLogger,
  parseModelSpec,
} from '../../src/entries/server.js';

export function createApp(options: { root: string; tokens: Map<string, string>; port: number }): Hono {
  const logger = createStderrLogger({ quiet: true });
  const server = createModelInputServer({
    root: options.root,
    models: parseModelSpec('host,builtin'),
    // One process here; a fleet shares keys (MCP_MODEL_INPUT_STATE_KEYS, see docs/security.md).
    keyRing: createEphemeralKeyRing(),
    logger,
    defaultPrincipal: 'anonymous',
  });
  const hosts = [`127.0.0.1:${options.port}`, `localhost:${options.port}`];
  const front = createModelInputHttpFront(server, {
    logger,
    tokens: options.tokens,
    allowedHosts: hosts,
    allowedOrigins: hosts.map((host) => `http://${host}`),
  });
  const app = new Hono();
  app.get('/', (c) => c.text('your app'));
  app.all('/mcp', (c) => front.fetch(c.req.raw));
  return app;
}

const started = fileURLToPath(import.meta.url);
if (process.argv[1] === started) {
  const root = process.argv[2] ?? process.cwd();
  const port = Number(process.env['PORT'] ?? 8787);
  const token = process.env['MCP_TOKEN'] ?? 'change-me';
  serve({ fetch: createApp({ root, tokens: new Map([[token, 'alice']]), port }).fetch, hostname: '127.0.0.1', port });
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
}
