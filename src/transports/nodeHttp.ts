/** Binds an `HttpFront` to a real socket with `@hono/node-server`'s fetch adapter. */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';

import type { HttpFront } from './http.js';
import { listenOn } from './listen.js';

export interface ListeningServer {
  /** The endpoint base, e.g. `http://127.0.0.1:3000`. */
  origin: string;
  port: number;
  close(): Promise<void>;
  /**
   * Graceful stop (SIGTERM): stop accepting connections and new MCP requests, let the requests in
   * flight finish within `timeoutMs`, then close. Resolves true when none had to be cut off.
   */
  drain(timeoutMs: number): Promise<boolean>;
}

/**
 * `createFront` receives the bound port (the Host allow-list depends on it when `port` is 0).
 * Requests are only accepted once the front exists.
 */
export interface ListenOptions {
  /**
   * Node's own deadline for receiving a whole request (headers and body), in milliseconds: the backstop behind
   * the front's body deadline, for requests the front never reads (default 60 s; Node's is 5 minutes).
   */
  requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** After an early answer, the unread rest of a body is read and dropped for at most this long… */
const LINGER_MS = 2_000;
/** …and at most this many bytes, before the socket is destroyed… */
const LINGER_BYTES = 4 * 1024 * 1024;
/** …and at most this many pieces (a body in 1-byte chunks costs a parser callback and a buffer per byte). */
const LINGER_CHUNKS = 1024;

/**
 * An answer given before the body was read ends the connection (`Connection: close`). Node would then close
 * the socket with the client's unread bytes still queued, which sends a reset that can arrive before the client
 * has read the answer. Instead: the answer goes out, the write side ends (FIN), and what the client still sends
 * is read and dropped for a bounded time and size (a "lingering close"), then the socket is destroyed.
 */
function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  let dropped = 0;
  let pieces = 0;
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    socket.end();
    const stop = (): void => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    const drop = (chunk: Buffer): void => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES || ++pieces > LINGER_CHUNKS) stop();
    };
    // The body stream's own listener would keep every dropped chunk queued for a reader that never comes.
    incoming.removeAllListeners('data');
    incoming.on('data', drop);
    incoming.once('end', stop);
    incoming.once('error', stop);
    socket.once('end', stop);
    socket.once('close', () => clearTimeout(timer));
    incoming.resume();
  };
}

export async function listenHttp(
  createFront: (boundPort: number) => HttpFront,
  host: string,
  port: number,
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const bound: { front?: HttpFront } = {};
  const server = createAdaptorServer({
    fetch: async (request: Request, env?: { incoming?: unknown }) => {
      if (bound.front === undefined) return Response.json({ error: 'starting' }, { status: 503 });
      const response = await bound.front.fetch(request);
      // HTTP/1.1 only (an HTTP/2 stream closes on its own without touching the connection).
      const incoming = env?.incoming as IncomingMessage | undefined;
      if (incoming?.httpVersionMajor === 1 && !incoming.complete && response.headers.get('connection') === 'close') {
        lingerOnClose(incoming);
      }
      return response;
    },
    hostname: host,
    port,
  });
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if ('requestTimeout' in server) {
    const node = server as { requestTimeout: number; headersTimeout: number };
    node.requestTimeout = requestTimeoutMs;
    node.headersTimeout = Math.min(node.headersTimeout, requestTimeoutMs);
  }
  const listening = await listenOn(server, host, port);
  bound.front = createFront(listening.port);
  const close = async (): Promise<void> => {
    await bound.front?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) (server as { closeAllConnections(): void }).closeAllConnections();
    });
  };
  return {
    origin: `http://${listening.urlHost}:${listening.port}`,
    port: listening.port,
    close,
    drain: async (timeoutMs) => {
      const front = bound.front;
      front?.drain();
      // No new connections; idle keep-alive connections go now, busy ones after their response.
      server.close();
      if ('closeIdleConnections' in server) (server as { closeIdleConnections(): void }).closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        (front?.idle() ?? Promise.resolve()).then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      await close();
      return finished;
    },
  };
}
