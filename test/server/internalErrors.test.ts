import { z } from 'zod';
import { describe, expect, it } from 'vitest';

import { createServerFactory } from '../../src/server/createServer.js';
import { INTERNAL_ERROR_MESSAGE } from '../../src/server/internalErrors.js';
import { defineTool } from '../../src/flows/tool.js';
import { createHttpFront } from '../../src/transports/http.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';
import { capturingLogger } from '../helpers/servers.js';

describe('internal errors', () => {
  it('answer -32603 with the fixed message; the detail goes to the log only', async () => {
    const logger = capturingLogger();
    const failing = (name: string, error: unknown) =>
      defineTool({
        name,
        title: name,
        description: 'fails',
        inputSchema: z.object({}),
        run: () => Promise.reject(error),
      });
    const front = createHttpFront({
      factory: createServerFactory({
        identity: { name: 'failing', version: '1.0.0' },
        tools: [
          failing(
            'eacces',
            Object.assign(new Error("EACCES: permission denied, open '/srv/secret/key.pem'"), { code: 'EACCES' }),
          ),
          failing('stack', new RangeError('Maximum call stack size exceeded')),
          failing('coded', Object.assign(new Error('has an integer code'), { code: -32000, data: { path: '/srv' } })),
        ],
        resolvePrincipal: () => 'tester',
        logger,
      }),
      logger,
      allowedHosts: ['localhost'],
      allowedOrigins: [],
    });
    const channel = httpChannel(front);
    let id = 1;
    for (const name of ['eacces', 'stack', 'coded']) {
      const reply = await channel.send({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name, arguments: {}, _meta: meta() },
      });
      expect(reply.message?.['error']).toEqual({ code: -32603, message: INTERNAL_ERROR_MESSAGE });
      expect(reply.text).not.toContain('/srv');
      expect(reply.text).not.toContain('stack size');
    }
    await channel.close();
    expect(logger.lines.join('\n')).toContain(
      "tools/call: internal error: Error: EACCES: permission denied, open '/srv/secret/key.pem'",
    );
    expect(logger.lines.join('\n')).toContain('RangeError: Maximum call stack size exceeded');
  });
});
