/**
 * The main job's connection: the official client and the server's stdio front joined by two in-memory streams —
 * newline-delimited JSON-RPC, exactly what `serve --stdio` reads and writes, through the same line gate and envelope
 * gate. No socket, no process, and no HTTP stack: Node's fetch implementation (undici) is a large share of a short
 * run's start-up, and nothing in-process needs it.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';

import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

/** A client transport over a readable (the server's output) and a writable (the server's input). */
export class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #buffer = new ReadBuffer();
  #closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  readonly #onData = (chunk: Buffer): void => {
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      // A line past the buffer's cap: the connection cannot be trusted to resynchronise.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    // A line that is not JSON is skipped by the buffer; one that is JSON but no JSON-RPC message is reported here.
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  };

  readonly #onError = (error: Error): void => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.on('data', this.#onData);
    this.input.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error('the in-process connection is closed'));
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.input.off('data', this.#onData);
    this.input.off('error', this.#onError);
    this.#buffer.clear();
    this.output.end();
    this.onclose?.();
  }
}

/** Two streams: what the client writes the server reads (`toServer`), and the other way round (`toClient`). */
export function createInProcessPipe(): { toServer: PassThrough; toClient: PassThrough } {
  return { toServer: new PassThrough(), toClient: new PassThrough() };
}
