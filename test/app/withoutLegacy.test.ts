/**
 * The legacy era is a plug-in: the product built without it serves revision 2026-07-28 exactly as
 * the product built with it does (same answers to the same requests, over HTTP and stdio), and
 * refuses what only the legacy era serves (`initialize`).
 */
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createModelInputHttpFront,
  createModelInputServer,
  serveModelInputStdio,
  type ModelInputServerOptions,
} from '../../src/app/modelInputServer.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function options(legacy: boolean): ModelInputServerOptions {
  return {
    root: repo.root,
    models: parseModelSpec('host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'anonymous',
    ...(legacy ? {} : { legacy: false as const }),
  };
}

type Send = (message: Record<string, unknown>) => Promise<Record<string, any> | undefined>;

/** The state is sealed with a fresh random key each time: compare everything else. */
function comparable(message: Record<string, any> | undefined): unknown {
  return JSON.parse(JSON.stringify(message ?? null).replace(/"requestState":"[^"]+"/g, '"requestState":"<sealed>"'));
}

/** A 2026-07-28 session of requests: discovery, listing, a whole MRTR call on the host's model, and errors. */
async function modernSession(send: Send): Promise<unknown[]> {
  const model = createBuiltinModel();
  const replies: unknown[] = [];
  const call = (id: number, extra: Record<string, unknown> = {}) =>
    send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: { maxFiles: 2 }, _meta: meta({ sampling: {} }), ...extra },
    });
  replies.push(comparable(await send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } })));
  replies.push(comparable(await send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta() } })));
  let reply = await call(3);
  for (let id = 4; reply?.['result']?.resultType === 'input_required' && id < 10; id++) {
    replies.push(comparable(reply));
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries<any>(reply['result'].inputRequests)) {
      inputResponses[key] = await model.complete({ key, params: request.params });
    }
    reply = await call(id, { requestState: reply['result'].requestState, inputResponses });
  }
  replies.push(comparable(reply));
  replies.push(comparable(await call(20, { _meta: meta() }))); // no sampling declared: -32021
  replies.push(comparable(await send({ jsonrpc: '2.0', id: 21, method: 'tools/list', params: {} }))); // no _meta
  replies.push(comparable(await call(22, { requestState: 'forged' })));
  return replies;
}

describe('the product without the legacy era', () => {
  it('answers 2026-07-28 over HTTP exactly as the product with it', async () => {
    const sessions = [];
    for (const legacy of [true, false]) {
      const front = createModelInputHttpFront(createModelInputServer(options(legacy)), {
        logger: silentLogger,
        allowedHosts: ['localhost'],
        allowedOrigins: [],
      });
      const channel = httpChannel(front);
      sessions.push(await modernSession(async (message) => (await channel.send(message)).message));
      await channel.close();
    }
    const [withLegacy, without] = sessions;
    expect(JSON.stringify(withLegacy)).toContain('"resultType":"complete"');
    expect(JSON.stringify(withLegacy)).toContain('-32021');
    expect(without).toEqual(withLegacy);
  });

  it('answers 2026-07-28 over stdio exactly as the product with it', async () => {
    const sessions = [];
    for (const legacy of [true, false]) {
      const input = new PassThrough();
      const output = new PassThrough();
      const handle = serveModelInputStdio(createModelInputServer(options(legacy)), {
        logger: silentLogger,
        input,
        output,
      });
      const lines = createInterface({ input: output })[Symbol.asyncIterator]();
      const send: Send = async (message) => {
        input.write(`${JSON.stringify(message)}\n`);
        const next = await lines.next();
        return next.done === true ? undefined : (JSON.parse(next.value) as Record<string, any>);
      };
      sessions.push(await modernSession(send));
      await handle.close();
    }
    expect(sessions[1]).toEqual(sessions[0]);
  });

  it('refuses initialize (-32022) where the product with it opens a 2025-11-25 session', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    };
    const statuses = [];
    for (const legacy of [true, false]) {
      const front = createModelInputHttpFront(createModelInputServer(options(legacy)), {
        logger: silentLogger,
        allowedHosts: ['localhost'],
        allowedOrigins: [],
      });
      const response = await front.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(initialize),
        }),
      );
      const text = await response.text();
      statuses.push({ status: response.status, session: response.headers.get('mcp-session-id') !== null, text });
      expect(front.sessions === undefined).toBe(!legacy);
      await front.close();
    }
    expect(statuses[0]).toMatchObject({ status: 200, session: true });
    expect(statuses[1]).toMatchObject({ session: false });
    expect(statuses[1]?.text).toContain('-32022');
  });
});
