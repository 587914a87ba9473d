/**
 * The stdio front: newline-delimited JSON-RPC on stdin/stdout through the SDK's `serveStdio`,
 * with our envelope gate in front of every request. Nothing else is written to stdout.
 */
import type { Readable, Writable } from 'node:stream';

import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import type { Logger } from '../logger.js';
import { checkRequestEnvelope } from '../server/envelope.js';
import { createStdioLineGate } from './stdioLineGate.js';

/** Decorates a transport: requests that fail the envelope gate are answered here, never delivered. */
export class EnvelopeGatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const request = message as { id?: unknown; method?: unknown; params?: unknown };
      if (typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number')) {
        const rejection = checkRequestEnvelope(request.method, request.params);
        if (rejection !== undefined) {
          const response = { jsonrpc: '2.0' as const, id: request.id, error: rejection } as JSONRPCMessage;
          void this.inner.send(response).catch((error: unknown) => this.onerror?.(error as Error));
          return;
        }
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}

export interface StdioFrontOptions {
  factory: McpServerFactory;
  logger: Logger;
  input?: Readable;
  output?: Writable;
}

export function serveStdioFront(options: StdioFrontOptions): StdioServerHandle {
  const output = options.output ?? process.stdout;
  const lines = createStdioLineGate(options.input ?? process.stdin, output);
  const transport = new EnvelopeGatedTransport(new StdioServerTransport(lines, output));
  return serveStdio(options.factory, {
    // Legacy (2025-11-25) serving arrives with the legacy adapter; until then it is refused.
    legacy: 'reject',
    transport,
    onerror: (error) => options.logger.warn(`stdio: ${error.message}`),
  });
}
