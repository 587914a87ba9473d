/**
 * The stdio front: newline-delimited JSON-RPC on stdin/stdout through the SDK's `serveStdio`,
 * with our envelope gate in front of every request. Nothing else is written to stdout.
 *
 * With an era plug-in (`era`, the legacy adapter passed in by app/), a client that opens with
 * `initialize` (2025-11-25) gets the SDK's legacy session on the same connection and the gate stands
 * aside; without one, `initialize` is refused (-32022).
 */
import type { Readable, Writable } from 'node:stream';

import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';

import type { Logger } from '../logger.js';
import { checkRequestEnvelope, type EnvelopeRejection } from '../protocol/envelope.js';
import type { StdioEraTracker } from '../server/era.js';
import { createStdioLineGate } from './stdioLineGate.js';

/**
 * Decorates a transport: requests that fail the envelope gate are answered here, never delivered.
 * With an era tracker (legacy serving on), a connection that opened with `initialize` is not gated.
 */
export class EnvelopeGatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Messages the era tracker holds while the era is decided, in arrival order (at most MAX_HELD). */
  readonly #held: Array<Parameters<NonNullable<Transport['onmessage']>>> = [];
  readonly #receive: NonNullable<Transport['onmessage']>;

  constructor(
    private readonly inner: Transport,
    private readonly eras?: StdioEraTracker,
    /** Told once, after the first message this side sent was written out. */
    private onFirstSent?: () => void,
    /** Told the method of every request received, before it is gated. */
    onRequest?: (method: string) => void,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const method = (message as { method?: unknown }).method;
      if (onRequest !== undefined && typeof method === 'string' && 'id' in message) onRequest(method);
      this.#receive(message, extra);
    };
    this.#receive = (message, extra) => {
      let verdict = this.eras?.inbound(message) ?? 'gate';
      if (verdict === 'hold') {
        if (this.#held.length < MAX_HELD) {
          this.#held.push([message, extra]);
          return;
        }
        verdict = 'gate';
      }
      if (verdict === 'drop') return;
      const request = message as { id?: unknown; method?: unknown; params?: unknown };
      if (typeof verdict === 'object') {
        this.#answer(request.id, verdict.refuse);
        return;
      }
      const isRequest =
        typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number');
      if (verdict === 'gate' && isRequest) {
        const method = request.method as string;
        const rejection = checkRequestEnvelope(method, request.params, { legacy: this.eras !== undefined });
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

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.eras?.outbound(message);
    await this.inner.send(message, options);
    const first = this.onFirstSent;
    this.onFirstSent = undefined;
    first?.();
    this.#release();
  }

  /** Once the era is decided (the handshake's answer is out), the held messages go on, in order. */
  #release(): void {
    if (this.#held.length === 0 || this.eras?.holding?.() === true) return;
    const held = this.#held.splice(0);
    for (const [message, extra] of held) this.#receive(message, extra);
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

/** Messages held while a handshake is unanswered; beyond it they are gated at once (a client that floods). */
const MAX_HELD = 64;

export interface StdioFrontOptions {
  factory: McpServerFactory;
  logger: Logger;
  input?: Readable;
  output?: Writable;
  /** An era plug-in's connection tracker (the legacy adapter); without it `initialize` is refused (-32022). */
  era?: () => StdioEraTracker;
  /** Called once, after the first answer was written (e.g. to warm up what the first tool call needs). */
  onFirstAnswer?: () => void;
  /** Called with the method of every request received (e.g. to give up a warm-up when a tool call arrives). */
  onRequest?: (method: string) => void;
}

export function serveStdioFront(options: StdioFrontOptions): StdioServerHandle {
  const output = options.output ?? process.stdout;
  const lines = createStdioLineGate(options.input ?? process.stdin, output);
  const transport = new EnvelopeGatedTransport(
    new StdioServerTransport(lines, output),
    options.era?.(),
    options.onFirstAnswer,
    options.onRequest,
  );
  return serveStdio(options.factory, {
    legacy: options.era === undefined ? 'reject' : 'serve',
    transport,
    onerror: (error) => options.logger.warn(`stdio: ${error.message}`, 'stdio_rejected'),
  });
}
