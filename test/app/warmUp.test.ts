/**
 * The warm-up after a server's first answer (app/warmUp.ts) and the main job's in-process pipe (app/inProcessPipe.ts):
 * the first answer is written before anything is warmed, and warming changes no result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createInProcessPipe, StreamClientTransport } from '../../src/app/inProcessPipe.js';
import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { serveModelInputStdio } from '../../src/app/modelInputServer.js';
import { warmUpCall, warmUpServer } from '../../src/app/warmUp.js';
import { silentLogger } from '../../src/logger.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { builtinServerStreams, requestLine as line, warmUpDirs } from '../helpers/stdioFront.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

describe('the stdio front tells when its first answer is out', () => {
  it('once, after the answer was written, never for a line the gate refused', async () => {
    const { server, input, output, written } = builtinServerStreams(repo.root);
    const seen: string[] = [];
    const methods: string[] = [];
    const handle = serveModelInputStdio(server, {
      logger: silentLogger,
      input,
      output,
      onFirstAnswer: () => seen.push(written()),
      onRequest: (method) => methods.push(method),
    });
    try {
      input.write('this is not JSON\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(written()).toContain('"id":null');
      expect(seen).toEqual([]);
      input.write(line(1, 'server/discover'));
      input.write(line(2, 'tools/list'));
      for (let turn = 0; turn < 200 && !written().includes('"id":2'); turn++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(seen).toHaveLength(1);
      // When told, the discover answer was already out.
      expect(seen[0]).toContain('"supportedVersions"');
      // Every request is told by its method (what `serve` gives the warm-up up on), a line that is not one is not.
      expect(methods).toEqual(['server/discover', 'tools/list']);
    } finally {
      await handle.close();
    }
  });
});

describe('the warm-up', () => {
  it('settles without failing, and the main job answers the same after it as before it', async () => {
    const before = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    await expect(warmUpServer()).resolves.toBeUndefined();
    // Once per process: a second start is the same promise, already settled.
    await expect(warmUpServer()).resolves.toBeUndefined();
    const after = await runLocalSummarize({ root: repo.root, args: { maxFiles: 3 }, logger: silentLogger });
    expect(after.isError).not.toBe(true);
    expect(after.content).toEqual(before.content);
  });
});

describe("the warm-up's synthetic call", () => {
  it('answers with a successful summary of its own tree and leaves no temporary files', async () => {
    const before = await warmUpDirs();
    expect(await warmUpCall(new AbortController().signal)).toBe('answered');
    expect(await warmUpDirs()).toEqual(before);
  });

  it('is never made once a request arrived, and is given up when one arrives while it runs', async () => {
    const before = await warmUpDirs();
    const aborted = new AbortController();
    aborted.abort();
    expect(await warmUpCall(aborted.signal)).toBe('abandoned');
    // Aborted as soon as its tree exists: the call is given up, the tree removed.
    const arriving = new AbortController();
    const running = warmUpCall(arriving.signal);
    for (let turn = 0; turn < 500 && (await warmUpDirs()).length === before.length; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect((await warmUpDirs()).length).toBe(before.length + 1);
    arriving.abort();
    expect(await running).toBe('abandoned');
    expect(await warmUpDirs()).toEqual(before);
  });

  it('is given up when it takes longer than its bound', async () => {
    const before = await warmUpDirs();
    expect(await warmUpCall(new AbortController().signal, 0)).toBe('timed_out');
    expect(await warmUpDirs()).toEqual(before);
  });
});

describe('the in-process pipe', () => {
  it('delivers whole messages in order however the bytes are cut, and skips a line that is not JSON without losing the rest', async () => {
    const { toClient, toServer } = createInProcessPipe();
    const transport = new StreamClientTransport(toClient, toServer);
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n{broken\n${JSON.stringify({ jsonrpc: '2.0', method: 'n' })}\n`;
    for (let index = 0; index < text.length; index += 7) toClient.write(text.slice(index, index + 7));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'n' },
    ]);

    let sent = '';
    toServer.on('data', (chunk: Buffer) => (sent += chunk.toString()));
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(JSON.parse(sent)).toEqual({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.close();
    await transport.close();
    expect(closed).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' })).rejects.toThrow(/closed/);
  });
});
