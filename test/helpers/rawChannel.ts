/**
 * Raw JSON-RPC over either front, for the cases the SDK client cannot express:
 * stdio drives a real `mcp-model-input serve --stdio` process; HTTP goes through the
 * front's in-process `fetch`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import type { HttpFront } from '../../src/transports/http.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const VERSION_2026 = '2026-07-28';

export interface RawReply {
  /** HTTP status (HTTP only). */
  status?: number;
  /** The JSON-RPC message, or undefined when nothing came back. */
  message?: Record<string, any>;
  /** Raw body text (HTTP only). */
  text?: string;
}

export interface RawChannel {
  readonly kind: 'stdio' | 'http';
  send(message: unknown, headers?: Record<string, string>): Promise<RawReply>;
  /** stdio only: writes one raw line and resolves with the next reply whose id is null. */
  sendRaw(line: string): Promise<RawReply>;
  /** Sends a notification; resolves with whatever came back within a short window. */
  notify(message: unknown): Promise<RawReply>;
  close(): Promise<void>;
  stderr(): string;
}

export function meta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION_2026,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '0.0.0' },
  };
}

/**
 * A POST to an MCP endpoint with the headers a 2026-07-28 client sends (`Mcp-Method` and `Mcp-Name`
 * mirrored from the body). `body` may be a raw string for malformed-input tests.
 */
export function mcpRequest(url: string, message: unknown, headers: Record<string, string> = {}): Request {
  const body = typeof message === 'string' ? undefined : (message as { method?: string; params?: { name?: string } });
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION_2026,
      ...(typeof body?.method === 'string' && { 'mcp-method': body.method }),
      ...(typeof body?.params?.name === 'string' && { 'mcp-name': body.params.name }),
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
}

export function stdioChannel(args: string[], env: Record<string, string> = {}): RawChannel {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, 'serve', '--stdio', ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return lineChannel({
    input: child.stdin,
    output: child.stdout,
    stderr: () => stderr,
    exited: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  });
}

/** The two ends of a line-delimited JSON-RPC server (a child process, or `main` run in-process). */
export interface LineEnds {
  input: Writable;
  output: Readable;
  stderr(): string;
  /** Resolves once the server has stopped after its input ended. */
  exited(): Promise<void>;
}

/**
 * How long a request waits for its reply: generous, because a server's first reply includes its start (loading its
 * modules; in-process, vitest transforming them too), which a loaded machine stretches to many seconds.
 */
const REPLY_TIMEOUT_MS = 60_000;

/** A RawChannel over newline-delimited JSON-RPC: replies are matched by id, waits are event-driven and bounded. */
export function lineChannel(ends: LineEnds): RawChannel {
  const { input, output, stderr } = ends;
  const received: Record<string, any>[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: output }).on('line', (line) => {
    received.push(JSON.parse(line) as Record<string, any>);
    for (const wake of waiters.splice(0)) wake();
  });
  const waitFor = async (predicate: (m: Record<string, any>) => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const index = received.findIndex(predicate);
      if (index >= 0) return received.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    kind: 'stdio',
    async send(message) {
      input.write(`${JSON.stringify(message)}\n`);
      const id = (message as { id?: unknown }).id;
      const reply = await waitFor((m) => m['id'] === id, REPLY_TIMEOUT_MS);
      if (reply === undefined) throw new Error(`no stdio reply for id ${JSON.stringify(id)}; stderr: ${stderr()}`);
      return { message: reply };
    },
    async sendRaw(line) {
      input.write(`${line}\n`);
      const reply = await waitFor((m) => m['id'] === null, REPLY_TIMEOUT_MS);
      if (reply === undefined) throw new Error(`no stdio reply to a raw line; stderr: ${stderr()}`);
      return { message: reply };
    },
    async notify(message) {
      input.write(`${JSON.stringify(message)}\n`);
      const any = await waitFor(() => true, 300);
      return any === undefined ? {} : { message: any };
    },
    async close() {
      input.end();
      await ends.exited();
    },
    stderr,
  };
}

export function httpChannel(front: HttpFront, url = 'http://localhost/mcp'): RawChannel {
  const post = async (message: unknown, headers: Record<string, string> = {}): Promise<RawReply> => {
    const response = await front.fetch(mcpRequest(url, message, headers));
    const text = await response.text();
    let parsed: Record<string, any> | undefined;
    try {
      parsed = text.length > 0 ? (JSON.parse(text) as Record<string, any>) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, text, ...(parsed !== undefined && { message: parsed }) };
  };
  return {
    kind: 'http',
    send: post,
    sendRaw: (line) => post(line),
    notify: (message) => post(message),
    close: () => front.close(),
    stderr: () => '',
  };
}
