/** The load-limit flags of `serve`; the command runs in-process (`main(argv, io)`). */
import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { createModelInputServer, serveModelInputStdio } from '../../src/app/modelInputServer.js';
import { admissionFromFlags, httpLimitsFromFlags } from '../../src/cli/limitFlags.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { SERVER_BUSY_CODE } from '../../src/server/admission.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { runCli } from '../helpers/cliIo.js';
import { meta } from '../helpers/rawChannel.js';

const cli = (args: string[]) => runCli(args);

describe('serve load-limit flags', () => {
  it('parse into the front and admission options', () => {
    expect(httpLimitsFromFlags({ 'max-body-in-flight': '1048576', 'body-timeout': '5' })).toEqual({
      maxBodyBytesInFlight: 1048576,
      bodyTimeoutMs: 5000,
    });
    expect(admissionFromFlags({ 'max-calls': '4', 'max-calls-per-principal': '2', 'max-queued-calls': '0' })).toEqual({
      maxConcurrent: 4,
      maxPerPrincipal: 2,
      maxQueued: 0,
    });
  });

  it.each([
    [['serve', '--stdio', '--body-timeout', '5'], '--body-timeout applies to --http only'],
    [['serve', '--stdio', '--max-body-in-flight', '1048576'], '--max-body-in-flight applies to --http only'],
    [['serve', '--stdio', '--max-calls', '0'], '--max-calls must be an integer from 1 to 10000'],
    [['serve', '--http', '0', '--body-timeout', 'soon'], '--body-timeout must be an integer from 1 to 3600'],
  ])('%j is a usage error', async (args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('--help documents them', async () => {
    const { stdout } = await cli(['serve', '--help']);
    for (const flag of [
      '--max-body-in-flight BYTES',
      '--body-timeout SECONDS',
      '--max-calls N',
      '--max-queued-calls N',
      '--max-calls-per-principal N',
    ]) {
      expect(stdout).toContain(flag);
    }
  });
});

describe('a busy server on stdio', () => {
  it('answers a tool call it cannot admit with JSON-RPC error -32000 and a retry hint', async () => {
    const server = createModelInputServer({
      root: process.cwd(),
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger: silentLogger,
      defaultPrincipal: 'local:test',
      admission: { maxConcurrent: 1, maxPerPrincipal: 1, maxQueued: 0 },
    });
    const hold = await server.admission.acquire('local:test');
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const handle = serveModelInputStdio(server, { logger: silentLogger, input, output });
    input.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
      })}\n`,
    );
    for (let attempt = 0; attempt < 500 && !text.includes('\n'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const reply = JSON.parse(text.split('\n')[0] ?? '{}') as { id: number; error: { code: number; data: unknown } };
    expect(reply.id).toBe(9);
    expect(reply.error.code).toBe(SERVER_BUSY_CODE);
    expect(reply.error.data).toEqual({ reason: 'principal_busy', retryAfterSeconds: 2 });
    hold();
    await handle.close();
  });
});
