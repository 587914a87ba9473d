/**
 * `--trace`: one line per exchange (id, method, resultType, input request keys). Never
 * prompt or response text. At the fetch level (HTTP, with the status) or around any SDK
 * transport (stdio and HTTP alike).
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

import { terminalSafe } from '../protocol/sanitize.js';

export type TraceSink = (line: string) => void;

/** A trace line carries server-chosen names (input keys, methods): bounded, no terminal controls. */
const MAX_TRACE_LINE_CHARS = 1000;

function safeSink(sink: TraceSink): TraceSink {
  return (line) => sink(terminalSafe(line, MAX_TRACE_LINE_CHARS));
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

interface TracedBody {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; requestState?: unknown; inputResponses?: Record<string, unknown> };
}

function describeRequest(body: TracedBody): string {
  const parts = [`-> id=${JSON.stringify(body.id ?? null)} ${String(body.method)}`];
  if (typeof body.params?.name === 'string') parts.push(`name=${body.params.name}`);
  if (body.params?.inputResponses !== undefined) {
    parts.push(`inputResponses=[${Object.keys(body.params.inputResponses).join(',')}]`);
  }
  if (typeof body.params?.requestState === 'string') parts.push(`requestState=${body.params.requestState.length}B`);
  return parts.join(' ');
}

function describeResponse(status: number | undefined, body: unknown): string {
  const message = body as {
    id?: unknown;
    error?: { code?: unknown };
    result?: { resultType?: unknown; inputRequests?: Record<string, unknown>; requestState?: unknown };
  };
  const parts = [`<- id=${JSON.stringify(message?.id ?? null)}${status === undefined ? '' : ` http=${status}`}`];
  if (message?.error !== undefined) parts.push(`error=${String(message.error.code)}`);
  if (message?.result !== undefined) {
    parts.push(`resultType=${String(message.result.resultType ?? 'complete')}`);
    if (message.result.inputRequests !== undefined) {
      parts.push(`inputRequests=[${Object.keys(message.result.inputRequests).join(',')}]`);
    }
    if (typeof message.result.requestState === 'string') {
      parts.push(`requestState=${message.result.requestState.length}B`);
    }
  }
  return parts.join(' ');
}

export function createTracingFetch(inner: Fetch, rawSink: TraceSink): Fetch {
  const sink = safeSink(rawSink);
  return async (url, init) => {
    let requestBody: TracedBody | undefined;
    if (typeof init?.body === 'string') {
      try {
        requestBody = JSON.parse(init.body) as TracedBody;
      } catch {
        requestBody = undefined;
      }
    }
    if (requestBody !== undefined) sink(describeRequest(requestBody));
    const response = await inner(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const text = await response.clone().text();
      try {
        sink(describeResponse(response.status, JSON.parse(text)));
      } catch {
        sink(`<- http=${response.status} (unparsable body)`);
      }
    } else {
      sink(`<- http=${response.status}${type ? ` ${type}` : ''}`);
    }
    return response;
  };
}

/** Traces every message that crosses a transport, both ways. */
export function createTracingTransport(inner: Transport, rawSink: TraceSink): Transport {
  const sink = safeSink(rawSink);
  const traced: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
      const body = message as TracedBody & { result?: unknown; error?: unknown };
      if (typeof body.method === 'string') sink(describeRequest(body));
      else sink(`-> id=${JSON.stringify(body.id ?? null)} ${body.error === undefined ? 'result' : 'error'}`);
      return inner.send(message, options);
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
    setSupportedProtocolVersions: (versions: string[]) => inner.setSupportedProtocolVersions?.(versions),
  };
  Object.defineProperty(traced, 'sessionId', { get: () => inner.sessionId });
  inner.onclose = () => traced.onclose?.();
  inner.onerror = (error) => traced.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const body = message as TracedBody & { result?: unknown; error?: unknown };
    if (typeof body.method === 'string') sink(`<= ${describeRequest(body).slice(3)}`);
    else sink(describeResponse(undefined, body));
    traced.onmessage?.(message, extra);
  };
  return traced;
}
