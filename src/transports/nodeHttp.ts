/** Binds an `HttpFront` to a real socket with `@hono/node-server`'s fetch adapter. */
import type { AddressInfo } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';

import type { HttpFront } from './http.js';

export interface ListeningServer {
  /** The endpoint base, e.g. `http://127.0.0.1:3000`. */
  origin: string;
  port: number;
  close(): Promise<void>;
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
  return {
    origin: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: async () => {
      await bound.front?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) (server as { closeAllConnections(): void }).closeAllConnections();
      });
    },
  };
}
