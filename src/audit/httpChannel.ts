/**
 * The HTTP probe: every message is its own POST to the endpoint with the 2026-07-28 headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). JSON and SSE responses are both read.
 */
import type { Exchange, JsonRpcMessage, ProbeChannel, StrayMessage } from './channel.js';
import { MODERN_REVISION } from '../protocol/revisions.js';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface HttpChannelOptions {
  url: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Defaults to the global fetch; tests pass an in-process front's fetch. */
  fetch?: FetchLike;
}

/** The most the probe reads of one HTTP response body; a larger body is a failure, not a hang or an OOM. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const NAMED_METHODS: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The headers a 2026-07-28 client sends, mirrored from the body. */
export function mirroredHeaders(message: JsonRpcMessage): Record<string, string> {
  const params = (message['params'] ?? {}) as Record<string, unknown>;
  const meta = (params['_meta'] ?? {}) as Record<string, unknown>;
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  const method = message['method'];
  const nameKey = typeof method === 'string' ? NAMED_METHODS[method] : undefined;
  const name = nameKey === undefined ? undefined : params[nameKey];
  return {
    'mcp-protocol-version': typeof version === 'string' ? version : MODERN_REVISION,
    ...(typeof method === 'string' && { 'mcp-method': method }),
    ...(typeof name === 'string' && { 'mcp-name': name }),
  };
}

function parseSse(text: string): JsonRpcMessage[] {
  const messages: JsonRpcMessage[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      const parsed = JSON.parse(data) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        messages.push(parsed as JsonRpcMessage);
    } catch {
      // not JSON: ignored, the exchange then has no message
    }
  }
  return messages;
}

/** Reads at most `limit` bytes of a body, as UTF-8; a failure string when it is larger or not UTF-8. */
export async function readBody(response: Response, limit: number): Promise<{ text: string } | { failure: string }> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    return { failure: `response body of ${declared} bytes is larger than ${limit} bytes` };
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        await reader.cancel().catch(() => {});
        return { failure: `response body is larger than ${limit} bytes` };
      }
      chunks.push(value);
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, length)) };
  } catch {
    return { failure: 'response body is not UTF-8' };
  }
}

export function createHttpChannel(options: HttpChannelOptions): ProbeChannel {
  const doFetch = options.fetch ?? fetch;
  const stray: StrayMessage[] = [];
  let seq = 0;
  return {
    kind: 'http',
    async send(message, headers = {}) {
      let response: Response;
      let body: Awaited<ReturnType<typeof readBody>>;
      try {
        response = await doFetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...mirroredHeaders(message),
            ...options.headers,
            ...headers,
          },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        body = await readBody(response, MAX_RESPONSE_BYTES);
      } catch (error) {
        return { failure: `HTTP request failed: ${(error as Error).message}` };
      }
      if ('failure' in body) return { status: response.status, failure: `HTTP ${response.status}: ${body.failure}` };
      const text = body.text;
      const responseHeaders = Object.fromEntries([...response.headers].map(([k, v]) => [k.toLowerCase(), v]));
      const exchange: Exchange = { status: response.status, headers: responseHeaders, text };
      const type = responseHeaders['content-type'] ?? '';
      let received: JsonRpcMessage[] = [];
      if (type.includes('text/event-stream')) received = parseSse(text);
      else if (text.trim() !== '') {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            received = [parsed as JsonRpcMessage];
        } catch {
          received = [];
        }
      }
      const id = JSON.stringify(message['id']);
      for (const item of received) {
        const answers = !('method' in item) && 'id' in message && JSON.stringify(item['id']) === id;
        if (answers && exchange.message === undefined) exchange.message = item;
        else stray.push({ message: item, seq: ++seq });
      }
      return exchange;
    },
    stray: () => stray,
    noise: () => [],
    settle: async () => {},
    diagnostics: () => '',
    close: async () => {},
  };
}
