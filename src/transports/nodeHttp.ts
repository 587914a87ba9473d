/** Binds an `HttpFront` to a real socket with `@hono/node-server`'s fetch adapter. */
import type { AddressInfo } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';

import type { HttpFront } from './http.js';

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
export async function listenHttp(
  createFront: (boundPort: number) => HttpFront,
  host: string,
  port: number,
): Promise<ListeningServer> {
  const bound: { front?: HttpFront } = {};
  const server = createAdaptorServer({
    fetch: (request: Request) =>
      bound.front === undefined ? Response.json({ error: 'starting' }, { status: 503 }) : bound.front.fetch(request),
    hostname: host,
    port,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  bound.front = createFront(address.port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const close = async (): Promise<void> => {
    await bound.front?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) (server as { closeAllConnections(): void }).closeAllConnections();
    });
  };
  return {
    origin: `http://${shownHost}:${address.port}`,
    port: address.port,
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
