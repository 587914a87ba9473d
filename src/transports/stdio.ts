/**
 * The stdio front: newline-delimited JSON-RPC on stdin/stdout through the SDK's `serveStdio`,
 * with our envelope gate in front of every request. Nothing else is written to stdout.
 *
 * A client that opens with `initialize` (2025-11-25) gets the SDK's legacy session on the same
 * connection, unless `legacy` is false; the gate then stands aside (legacy/stdioEra.ts).
 */
import type { Readable, Writable } from 'node:stream';

import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import { createStdioEraTracker, type StdioEraTracker } from '../legacy/stdioEra.js';
import type { Logger } from '../logger.js';
import { checkRequestEnvelope, type EnvelopeRejection } from '../protocol/envelope.js';
import { createStdioLineGate } from './stdioLineGate.js';

/** The gate's answer to a malformed `initialize` while the era is open (legacy/stdioEra.ts). */
const MALFORMED_INITIALIZE: EnvelopeRejection = {
  code: -32602,
  message: 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo',
};

/**
 * Decorates a transport: requests that fail the envelope gate are answered here, never delivered.
 * With an era tracker (legacy serving on), a connection that opened with `initialize` is not gated.
 */
export class EnvelopeGatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly eras?: StdioEraTracker,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const verdict = this.eras?.inbound(message) ?? 'gate';
      if (verdict === 'drop') return;
      const request = message as { id?: unknown; method?: unknown; params?: unknown };
      if (verdict === 'refuse') {
        this.#answer(request.id, MALFORMED_INITIALIZE);
        return;
      }
      const isRequest =
        typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number');
      if (verdict === 'gate' && isRequest) {
        const method = request.method as string;
        const rejection = checkRequestEnvelope(method, request.params);
        if (rejection !== undefined) {
          this.#answer(request.id, rejection);
          return;
        }
        this.eras?.admitted(method);
      }
      this.onmessage?.(message, extra);
    };
  }

  #answer(id: unknown, error: EnvelopeRejection): void {
    const response = { jsonrpc: '2.0' as const, id, error } as JSONRPCMessage;
    void this.inner.send(response).catch((failure: unknown) => this.onerror?.(failure as Error));
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.eras?.outbound(message);
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
  /** Serve 2025-11-25 clients that open with `initialize` (default true); false refuses them (-32022). */
  legacy?: boolean;
}

export function serveStdioFront(options: StdioFrontOptions): StdioServerHandle {
  const output = options.output ?? process.stdout;
  const lines = createStdioLineGate(options.input ?? process.stdin, output);
  const legacy = options.legacy ?? true;
  const transport = new EnvelopeGatedTransport(
    new StdioServerTransport(lines, output),
    legacy ? createStdioEraTracker() : undefined,
  );
  return serveStdio(options.factory, {
    legacy: legacy ? 'serve' : 'reject',
    transport,
    onerror: (error) => options.logger.warn(`stdio: ${error.message}`),
  });
}
