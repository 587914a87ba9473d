/**
 * The transport the host starts a stdio server with: the server runs in a session of its own (`setsid`), so it has
 * no controlling terminal — `/dev/tty` cannot be opened (ENXIO) and the user's keystrokes never reach it — and
 * Ctrl-C in the host's terminal is the host's alone. stdin and stdout are the protocol's pipes; stderr is
 * discarded, inherited, or piped to a stream the host chooses (serverStderr.ts).
 *
 * The SDK's StdioClientTransport has no way to detach the child, hence this one. It keeps the shape the SDK's
 * version negotiation looks for (`_serverParams`, a constructor taking them, `_dispose`), so a stdio server is still
 * probed on a disposable sibling process, as with the SDK's own transport.
 */
import { spawn, type ChildProcess } from 'node:child_process';

import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

export interface DetachedStdioParams {
  command: string;
  args?: string[];
  cwd?: string;
  /** Added to the SDK's default environment (PATH, HOME, USER and the like), as the SDK's transport does. */
  env?: Record<string, string>;
  /** `ignore`, `inherit` (the server shares the host's stderr: its terminal, if it is one), or a stream. */
  stderr?: 'ignore' | 'inherit' | NodeJS.WritableStream;
  /** The largest message the read buffer holds (the SDK's default when absent). */
  maxBufferSize?: number;
}

/** How long `close` waits after ending stdin, then after SIGTERM, before the next step. */
const CLOSE_STEP_MS = 2000;

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitFor(event: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([event, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Read by the SDK's stdio version negotiation to start a probe sibling with the same parameters. */
  readonly _serverParams: DetachedStdioParams;
  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer;

  constructor(params: DetachedStdioParams) {
    this._serverParams = params;
    this.buffer = new ReadBuffer(params.maxBufferSize === undefined ? {} : { maxBufferSize: params.maxBufferSize });
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error('DetachedStdioTransport already started');
    const params = this._serverParams;
    const stderr = params.stderr ?? 'inherit';
    return new Promise((resolve, reject) => {
      const child = spawn(params.command, params.args ?? [], {
        env: { ...getDefaultEnvironment(), ...params.env },
        stdio: ['pipe', 'pipe', typeof stderr === 'string' ? stderr : 'pipe'],
        shell: false,
        // Its own session and process group: no controlling terminal (see the file comment).
        detached: true,
        windowsHide: true,
        ...(params.cwd !== undefined && { cwd: params.cwd }),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          this.readMessages();
        } catch (error) {
          this.onerror?.(error as Error);
          void this.close().catch(() => {});
        }
      });
      if (typeof stderr !== 'string') child.stderr?.pipe(stderr as NodeJS.WritableStream, { end: false });
    });
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (stdin === undefined || stdin === null) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin and waits for the server to exit; then SIGTERM; then SIGKILL. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child !== undefined) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      await waitFor(closed, CLOSE_STEP_MS);
      if (!exited(child)) {
        child.kill('SIGTERM');
        await waitFor(closed, CLOSE_STEP_MS);
      }
      if (!exited(child)) child.kill('SIGKILL');
    }
    this.buffer.clear();
  }

  /** Reaps a version-negotiation probe sibling (called by the SDK): signal first, awaiting `exit`, never `close`. */
  async _dispose(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child !== undefined && !exited(child)) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      child.kill('SIGTERM');
      await waitFor(gone, 1000);
      if (!exited(child)) child.kill('SIGKILL');
      await gone;
    }
    child?.stdout?.destroy();
    child?.stdin?.destroy();
    child?.stderr?.destroy();
    this.buffer.clear();
  }
}
