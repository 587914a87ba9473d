/**
 * The stdio line gate: every line is checked before the SDK's transport sees it. The SDK skips
 * non-JSON lines silently and drops schema-invalid ones with a log dump; JSON-RPC says the sender
 * gets an error with `id: null`. Valid lines pass through unchanged.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

function errorLine(code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;
}

/** Why a parsed line is not a single JSON-RPC message we accept, or undefined if it is fine. */
function rejectReason(message: unknown): string | undefined {
  if (Array.isArray(message)) return 'Invalid Request: JSON-RPC batches are not supported';
  if (typeof message !== 'object' || message === null) return 'Invalid Request: expected a JSON-RPC object';
  const { id, method } = message as { id?: unknown; method?: unknown };
  if ('id' in message && typeof id !== 'string' && typeof id !== 'number') {
    return 'Invalid Request: id must be a string or a number';
  }
  if (method !== undefined && typeof method !== 'string') return 'Invalid Request: method must be a string';
  return undefined;
}

export function createStdioLineGate(
  input: Readable,
  output: Writable,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
): Readable {
  const passed = new PassThrough();
  let buffer: Buffer = Buffer.alloc(0);
  let discarding = false;

  const handleLine = (raw: Buffer): void => {
    const line = raw.toString('utf8').replace(/\r$/, '');
    if (line.trim().length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      output.write(errorLine(-32700, 'Parse error: the line is not JSON'));
      return;
    }
    const reason = rejectReason(message);
    if (reason !== undefined) {
      output.write(errorLine(-32600, reason));
      return;
    }
    passed.write(`${line}\n`);
  };

  input.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (let newline = buffer.indexOf(0x0a); newline !== -1; newline = buffer.indexOf(0x0a)) {
      const line = buffer.subarray(0, newline);
      buffer = buffer.subarray(newline + 1);
      if (discarding) discarding = false;
      else handleLine(line);
    }
    if (buffer.length > maxLineBytes) {
      if (!discarding) output.write(errorLine(-32600, `Invalid Request: message larger than ${maxLineBytes} bytes`));
      discarding = true;
      buffer = Buffer.alloc(0);
    }
  });
  input.once('end', () => {
    if (!discarding && buffer.length > 0) handleLine(buffer);
    passed.end();
  });
  input.once('error', (error) => passed.destroy(error));
  return passed;
}
