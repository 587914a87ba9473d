/**
 * `--trace`: one line per exchange (id, method, resultType, input request keys). Never
 * prompt or response text. At the fetch level (HTTP, with the status) or around any SDK
 * transport (stdio and HTTP alike). In a tool loop (SEP-1577) a sampling request adds the tools
 * offered, the tool choice and the calls made so far (`name target`), and an answer the tool
 * calls its model asks for (toolSummary.ts).
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

import { terminalSafe } from '../protocol/sanitize.js';
import { describeCalls, listed, summarizeToolLoop, toolCallsIn } from './toolSummary.js';

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

/** `KEY:tools=[a,b] toolChoice=auto calls=2[a .; b README.md]` for a sampling request in a tool loop. */
function toolLoopPart(label: string, params: unknown): string[] {
  const loop = summarizeToolLoop(params);
  if (loop === undefined) return [];
  const calls = loop.calls.length === 0 ? '0' : `${loop.calls.length}[${describeCalls(loop.calls)}]`;
  return [`${label}tools=[${listed(loop.tools, ',')}] toolChoice=${loop.choice} calls=${calls}`];
}

/** `KEY:toolUse=[read_file a.ts]` for an answer whose model asks for tool calls. */
function toolUsePart(label: string, result: unknown): string[] {
  const content = (result as { content?: unknown } | null | undefined)?.content;
  const calls = toolCallsIn(content);
  return calls.length === 0 ? [] : [`${label}toolUse=[${describeCalls(calls)}]`];
}

function describeRequest(body: TracedBody): string {
  const parts = [`-> id=${JSON.stringify(body.id ?? null)} ${String(body.method)}`];
  if (typeof body.params?.name === 'string') parts.push(`name=${body.params.name}`);
  if (body.params?.inputResponses !== undefined) {
    const responses = Object.entries(body.params.inputResponses);
    parts.push(`inputResponses=[${responses.map(([key]) => key).join(',')}]`);
    for (const [key, response] of responses) parts.push(...toolUsePart(`${key}:`, response));
  }
  if (typeof body.params?.requestState === 'string') parts.push(`requestState=${body.params.requestState.length}B`);
  if (body.method === 'sampling/createMessage') parts.push(...toolLoopPart('', body.params));
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
      const requests = Object.entries(message.result.inputRequests);
      parts.push(`inputRequests=[${requests.map(([key]) => key).join(',')}]`);
      for (const [key, request] of requests) {
        const embedded = request as { method?: unknown; params?: unknown } | null;
        if (embedded?.method === 'sampling/createMessage') parts.push(...toolLoopPart(`${key}:`, embedded.params));
      }
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
      else {
        const kind = body.error === undefined ? 'result' : 'error';
        sink([`-> id=${JSON.stringify(body.id ?? null)} ${kind}`, ...toolUsePart('', body.result)].join(' '));
      }
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
