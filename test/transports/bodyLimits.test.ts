/**
 * Items 2 and 6 of the hardening issue over a real socket on 127.0.0.1: early answers close the
 * connection cleanly, the bytes of bodies in flight are bounded process-wide, and a stalled body
 * gets a deadline.
 */
import { connect, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBodyBudget, FREE_CHUNKS, maxChunksFor, readBodyCapped } from '../../src/transports/body.js';
import { listenHttp, type ListeningServer } from '../../src/transports/nodeHttp.js';
import { meta } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';

const MAX_BODY = 64 * 1024;
const IN_FLIGHT = 160 * 1024;
let server: ListeningServer;

beforeAll(async () => {
  server = await listenHttp(
    () =>
      createTestFront({
        root: process.cwd(),
        maxBodyBytes: MAX_BODY,
        front: { maxBodyBytesInFlight: IN_FLIGHT, bodyTimeoutMs: 500 },
      }),
    '127.0.0.1',
    0,
  );
});
afterAll(async () => {
  await server.close();
});

interface Exchange {
  socket: Socket;
  /** Resolves with everything received once the server closes the connection (or after `waitMs`). */
  closed: Promise<{ text: string; closedByServer: boolean }>;
}

function open(waitMs = 10_000): Exchange {
  const socket = connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const closed = new Promise<{ text: string; closedByServer: boolean }>((resolve) => {
    const timer = setTimeout(() => {
      resolve({ text, closedByServer: false });
      socket.destroy();
    }, waitMs);
    // A reset after the answer (the client was still sending) still counts: the answer arrived first.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedByServer: true });
    });
  });
  return { socket, closed };
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta() } });
const HEAD =
  'POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\n' +
  'Content-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n';

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
}

function header(text: string, name: string): string | undefined {
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  return new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();
}

/** A well-formed tools/list on a fresh socket, keep-alive: 200. */
async function listWorks(): Promise<boolean> {
  const exchange = open(3_000);
  exchange.socket.write(`${HEAD}Connection: close\r\nContent-Length: ${Buffer.byteLength(LIST)}\r\n\r\n${LIST}`);
  const { text } = await exchange.closed;
  return statusOf(text) === 200 && text.includes('"tools"');
}

describe('early answers close the connection', () => {
  it('413 on an oversized chunked body: Connection: close, the socket ends, the next socket is served', async () => {
    const exchange = open();
    exchange.socket.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n`);
    const chunk = 'x'.repeat(16 * 1024);
    for (let index = 0; index < 8; index++) exchange.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const { text, closedByServer } = await exchange.closed;
    expect(statusOf(text)).toBe(413);
    expect(header(text, 'connection')).toBe('close');
    expect(closedByServer).toBe(true);
    expect(await listWorks()).toBe(true);
  });

  it('413 on a declared oversized length, before the body is read: the same', async () => {
    const exchange = open();
    exchange.socket.write(`${HEAD}Content-Length: ${MAX_BODY * 4}\r\n\r\n${'x'.repeat(MAX_BODY)}`);
    const { text, closedByServer } = await exchange.closed;
    expect(statusOf(text)).toBe(413);
    expect(header(text, 'connection')).toBe('close');
    expect(closedByServer).toBe(true);
    expect(await listWorks()).toBe(true);
  });

  it('403 for a wrong Host with a body: Connection: close', async () => {
    const exchange = open();
    exchange.socket.write(
      `${HEAD.replace('Host: localhost', 'Host: evil.example')}Content-Length: 10\r\n\r\n0123456789`,
    );
    const { text } = await exchange.closed;
    expect(statusOf(text)).toBe(403);
    expect(header(text, 'connection')).toBe('close');
  });
});

describe('bounded bodies in flight', () => {
  it('answers 503 with Retry-After once the bytes of stalled bodies fill the budget, and recovers', async () => {
    // Three stalled bodies of 60 KiB each: two fit in the 160 KiB budget, the third cannot.
    const stalled = [open(), open(), open()];
    for (const exchange of stalled) exchange.socket.write(`${HEAD}Content-Length: ${60 * 1024}\r\n\r\n{"jsonrpc"`);
    const answers = await Promise.all(stalled.map((exchange) => exchange.closed));
    // The two admitted miss their deadline: 408. Every answer closes its connection, and the bytes are released.
    expect(answers.map(({ text }) => statusOf(text)).sort()).toEqual([408, 408, 503]);
    for (const { text, closedByServer } of answers) {
      expect(header(text, 'connection')).toBe('close');
      expect(closedByServer).toBe(true);
    }
    const refused = answers.find(({ text }) => statusOf(text) === 503)?.text ?? '';
    expect(header(refused, 'retry-after')).toBe('1');
    expect(refused).toContain('too many request bodies in flight');
    expect(await listWorks()).toBe(true);
  });
});

describe('the body budget', () => {
  it('keeps an eighth for small bodies, so ordinary requests pass while large bodies stall', () => {
    const budget = createBodyBudget(1024 * 1024);
    expect(budget.reserve(900 * 1024, 900 * 1024)).toBe(false);
    expect(budget.reserve(800 * 1024, 800 * 1024)).toBe(true);
    expect(budget.reserve(100 * 1024, 1024 * 1024)).toBe(false); // a large body cannot grow into the small share
    expect(budget.reserve(32 * 1024, 32 * 1024)).toBe(true);
    expect(budget.reserve(32 * 1024, 32 * 1024)).toBe(true);
    expect(budget.inFlight).toBe(864 * 1024);
    budget.release(800 * 1024);
    expect(budget.inFlight).toBe(64 * 1024);
  });
});

describe('a body of declared length', () => {
  const post = (body: string, length: number) =>
    new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-length': String(length) }, body });

  it('is read whole, its declared bytes held in the budget until released', async () => {
    const budget = createBodyBudget(1024);
    const read = await readBodyCapped(post('{"a":1}', 7), 100, { budget });
    expect(read.body).toEqual({ kind: 'ok', text: '{"a":1}' });
    expect(budget.inFlight).toBe(7);
    read.release();
    expect(budget.inFlight).toBe(0);
  });

  it('longer than declared is refused as too large, and nothing stays reserved', async () => {
    const budget = createBodyBudget(1024);
    const read = await readBodyCapped(post('x'.repeat(50), 10), 100, { budget });
    expect(read.body).toEqual({ kind: 'too_large' });
    expect(budget.inFlight).toBe(0);
  });

  it('an invalid declared length is read as a stream, within the cap', async () => {
    const read = await readBodyCapped(post('x'.repeat(150), -1), 100);
    expect(read.body).toEqual({ kind: 'too_large' });
  });
});

describe('a chunked body: what its pieces cost is bounded, not only its bytes', () => {
  /** A request whose body arrives in `pieces` (one stream read each). */
  const streamed = (pieces: readonly string[]) => {
    const encoder = new TextEncoder();
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index < pieces.length) controller.enqueue(encoder.encode(pieces[index++]));
        else controller.close();
      },
    });
    return new Request('http://localhost/mcp', { method: 'POST', body, duplex: 'half' } as RequestInit);
  };

  it('refuses 1-byte pieces past the allowance, and gives back what it reserved', async () => {
    const budget = createBodyBudget(1024 * 1024);
    const pieces = Array.from({ length: maxChunksFor(0) * 3 }, () => 'x');
    const read = await readBodyCapped(streamed(pieces), 1024 * 1024, { budget });
    expect(read.body).toEqual({ kind: 'too_fragmented' });
    expect(budget.inFlight).toBe(0);
  });

  it('reads a body whose pieces average a few hundred bytes whole, in order', async () => {
    const text = Array.from({ length: 3000 }, (_, index) => `${index},`.padEnd(300, ' ')).join('');
    const pieces = text.match(/[\s\S]{1,300}/g) ?? [];
    expect(pieces.length).toBeGreaterThan(FREE_CHUNKS);
    const read = await readBodyCapped(streamed(pieces), 1024 * 1024);
    expect(read.body).toEqual({ kind: 'ok', text });
  });

  it('over a socket: 1-byte chunks get 400 and the connection is closed; the next socket is served', async () => {
    const exchange = open();
    exchange.socket.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n`);
    // Three times the allowance, in 1-byte chunks (the server stops reading long before the end).
    exchange.socket.write('1\r\n \r\n'.repeat(maxChunksFor(0) * 3));
    exchange.socket.write('0\r\n\r\n');
    const { text, closedByServer } = await exchange.closed;
    expect(statusOf(text)).toBe(400);
    expect(header(text, 'connection')).toBe('close');
    expect(text).toContain('too many chunks');
    expect(closedByServer).toBe(true);
    expect(await listWorks()).toBe(true);
  });

  it('over a socket: a chunked body in pieces of ordinary size is served', async () => {
    const padded = `${LIST.slice(0, -1)}${' '.repeat(40_000)}}`;
    const pieces = padded.match(/[\s\S]{1,1460}/g) ?? [];
    const exchange = open(5_000);
    exchange.socket.write(`${HEAD}Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n`);
    for (const piece of pieces) exchange.socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    exchange.socket.write('0\r\n\r\n');
    const { text } = await exchange.closed;
    expect(statusOf(text)).toBe(200);
    expect(text).toContain('"tools"');
  });
});
