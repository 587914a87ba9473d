/**
 * The baseline of `npm run stress`: the SDK's minimal `McpServer` behind `createMcpHandler` on a real socket,
 * with a `summarize_repo` tool that asks for `pick_files` (no repository work) and completes on the retry.
 * Started as a child process by bench/stress.ts; prints `listening <port>` on stdout.
 */
import { randomBytes } from 'node:crypto';

import { createAdaptorServer } from '@hono/node-server';
import { createMcpHandler, createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const codec = createRequestStateCodec<{ phase: string }>({ key: randomBytes(32) });
const hints = { ttlMs: 300_000, cacheScope: 'public' as const };
const handler = createMcpHandler(
  () => {
    const server = new McpServer(
      { name: 'baseline', version: '1.0.0' },
      { cacheHints: { 'tools/list': hints, 'server/discover': hints }, requestState: { verify: codec.verify } },
    );
    server.registerTool(
      'summarize_repo',
      { inputSchema: z.object({ audience: z.string().optional(), maxFiles: z.number().int().default(3) }) },
      async (_args, ctx) => {
        if (ctx.mcpReq.requestState() === undefined) {
          return inputRequired({
            inputRequests: {
              pick_files: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: 'pick' } }],
                maxTokens: 400,
              }),
            },
            requestState: await codec.mint({ phase: 'pick' }),
          });
        }
        return { content: [{ type: 'text', text: 'A summary.' }] };
      },
    );
    return server;
  },
  { legacy: 'reject' },
);
const server = createAdaptorServer({ fetch: (request: Request) => handler.fetch(request), hostname: '127.0.0.1' });
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address !== null ? address.port : 0}\n`);
});
process.once('SIGTERM', () => process.exit(0));
