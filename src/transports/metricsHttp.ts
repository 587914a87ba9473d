/**
 * `serve --metrics [HOST:]PORT`: Prometheus text format on a listener of its own, so that metrics
 * are never exposed with the MCP endpoint by accident. `GET /metrics` only.
 */
import { createServer } from 'node:http';

import type { Registry } from 'prom-client';

import type { Logger } from '../logger.js';
import { listenOn } from './listen.js';

export interface MetricsListener {
  /** e.g. `http://127.0.0.1:9464/metrics` */
  url: string;
  close(): Promise<void>;
}

export async function listenMetrics(
  registry: Registry,
  host: string,
  port: number,
  logger: Logger,
): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        logger.warn(`metrics: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  const bound = await listenOn(server, host, port);
  return {
    url: `http://${bound.urlHost}:${bound.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
