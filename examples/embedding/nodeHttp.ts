/**
 * Mounting the server in an existing Node `http` server (Express works the same way: hand the
 * listener the requests under `/mcp`). `getRequestListener` from `@hono/node-server` turns the
 * front's `fetch` handler into a Node request listener.
 *
 *   tsx examples/embedding/nodeHttp.ts DIR    (serves DIR at http://127.0.0.1:PORT/mcp)
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';

import { getRequestListener } from '@hono/node-server';

import {
  createEphemeralKeyRing,
  createModelInputHttpFront,
  createModelInputServer,
  createStderrLogger,
  parseModelSpec,
} from '../../src/entries/server.js';

export function createAppServer(options: { root: string; tokens: Map<string, string>; port: number }): Server {
  const logger = createStderrLogger({ quiet: true });
  const front = createModelInputHttpFront(
    createModelInputServer({
      root: options.root,
      models: parseModelSpec('builtin'),
      keyRing: createEphemeralKeyRing(),
      logger,
      defaultPrincipal: 'anonymous',
    }),
    {
      logger,
      tokens: options.tokens,
      allowedHosts: [`127.0.0.1:${options.port}`, `localhost:${options.port}`],
      allowedOrigins: [],
    },
  );
  const mcp = getRequestListener(front.fetch);
  const server = createServer((request, response) => {
    if (request.url === '/mcp' || request.url?.startsWith('/mcp?')) return void mcp(request, response);
    response.end('your app\n');
  });
  server.on('close', () => void front.close());
  return server;
}

const started = fileURLToPath(import.meta.url);
if (process.argv[1] === started) {
  const port = Number(process.env['PORT'] ?? 8788);
  const token = process.env['MCP_TOKEN'] ?? 'change-me';
  createAppServer({ root: process.argv[2] ?? process.cwd(), tokens: new Map([[token, 'alice']]), port }).listen(
    port,
    '127.0.0.1',
    () => process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`),
  );
}
