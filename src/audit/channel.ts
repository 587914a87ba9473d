/** A raw JSON-RPC line to the audited server, over stdio (a spawned command) or HTTP (POST per message). */

export type JsonRpcMessage = Record<string, unknown>;

export interface Exchange {
  /** The response to the request (same id), when one came. */
  message?: JsonRpcMessage;
  /** HTTP only: status, headers (lower-case names) and raw body. */
  status?: number;
  headers?: Record<string, string>;
  text?: string;
  /** No response within the timeout, or the server went away. */
  failure?: string;
}

/** Something the server sent that answered none of our requests. */
export interface StrayMessage {
  message: JsonRpcMessage;
  /** A monotonically increasing sequence number, to tell what arrived after a given point. */
  seq: number;
}

export interface ProbeChannel {
  readonly kind: 'stdio' | 'http';
  /** Sends a request (a message with an id) and waits for its response, or a notification (no wait on stdio). */
  send(message: JsonRpcMessage, headers?: Record<string, string>): Promise<Exchange>;
  /** Everything unsolicited so far. */
  stray(): readonly StrayMessage[];
  /** stdout lines that were not JSON-RPC messages (stdio only). */
  noise(): readonly string[];
  /** Waits up to `ms` for late messages (bounded; used after notifications only). */
  settle(ms: number): Promise<void>;
  /** A short description of the server's standard error tail, for failure details (stdio only). */
  diagnostics(): string;
  close(): Promise<void>;
}

export function isRequestMessage(message: JsonRpcMessage): boolean {
  return typeof message['method'] === 'string' && 'id' in message && message['id'] !== null;
}
