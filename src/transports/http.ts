/**
 * The Streamable HTTP front (revision 2026-07-28): one endpoint, every message its own POST.
 * It owns what the SDK handler leaves to its host: DNS-rebinding protection (Host and Origin),
 * bearer-token principals, a body cap that answers before parsing, and the envelope gate.
 * Then it hands the request to the SDK's `createMcpHandler`.
 *
 * With a sessionful leg plugged in (`sessions`: the legacy adapter's, passed in by app/), 2025-11-25
 * clients (an `initialize`, then `Mcp-Session-Id` on everything without a 2026-07-28 envelope) go
 * there after the same Host/Origin, bearer and body checks; without one, `initialize` is refused with
 * -32022 by the SDK. A request whose `MCP-Protocol-Version` header names 2026-07-28 never goes there.
 */
import { hostname, networkInterfaces } from 'node:os';

import {
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  type AuthInfo,
  type McpServerFactory,
} from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import { checkRequestEnvelope, hasEnvelopeClaim } from '../protocol/envelope.js';
import type { SessionLeg, SessionLegFactory } from '../server/era.js';
import type { RequestOutcome, ServerMetrics } from '../server/metrics.js';
import { SERVER_BUSY_CODE, ServerBusyError, type Admission, type AdmissionRefusal } from '../server/admission.js';
import { ANONYMOUS } from '../server/principals.js';
import type { PrincipalLimits } from '../server/principalLimits.js';
import { isStoreUnavailableError } from '../state/stores/index.js';
import { createBodyBudget, FREE_CHUNKS, MIN_AVERAGE_CHUNK_BYTES, readBodyCapped, type BodyBudget } from './body.js';
import { createOperations, type ReadinessCheck } from './operations.js';
import { namesModernRevision } from '../protocol/revisions.js';

export const DEFAULT_ENDPOINT = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Request-body bytes all requests together may have buffered at once; beyond it, 503 with Retry-After. */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;
/** A request body must arrive whole within this many milliseconds (408 otherwise). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** Retry-After (seconds) of a 503 for a spent body budget. */
const BODY_BUSY_RETRY_AFTER_SECONDS = 1;

export interface HttpFrontOptions {
  factory: McpServerFactory;
  logger: Logger;
  endpoint?: string;
  /** `host[:port]` values accepted in the Host header (lower case). */
  allowedHosts: readonly string[];
  /** Origins accepted when a browser sends an Origin header. */
  allowedOrigins: readonly string[];
  /** Bearer token -> principal. When set, every request needs a known token. */
  tokens?: ReadonlyMap<string, string>;
  maxBodyBytes?: number;
  /** The process-wide budget of request-body bytes in flight (default 64 MiB), or a budget shared with others. */
  maxBodyBytesInFlight?: number | BodyBudget;
  /** Deadline for reading one request body, in milliseconds (default 30 s). */
  bodyTimeoutMs?: number;
  /**
   * The tool-call admission the server factory enforces: a `tools/call` it would refuse gets 503 or 429 with
   * `Retry-After` here, before the SDK sees it.
   */
  admission?: Admission;
  /** Sessionful serving of clients that open with `initialize` (an era plug-in's); absent: refused. */
  sessions?: SessionLegFactory;
  /** Per-principal limits on new tool calls: over a limit is HTTP 429 with Retry-After. */
  limits?: PrincipalLimits;
  /** Requests by method and outcome, limits hit, open legacy sessions. */
  metrics?: ServerMetrics;
  /** What `GET /readyz` checks besides draining (e.g. `keys`, `store`). */
  readiness?: Readonly<Record<string, ReadinessCheck>>;
}

export interface HttpFront {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
  /** The sessionful leg, when one is plugged in: how many sessions are open, and an idle sweep now. */
  readonly sessions?: { readonly count: number; sweep(): Promise<number> };
  /** Stops taking MCP requests (503, `Connection: close`); `/readyz` answers 503 from now on. */
  drain(): void;
  /** Resolves once no MCP request is in flight. */
  idle(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string, id: unknown = null, data?: unknown): Response {
  const error = { code, message, ...(data !== undefined && { data }) };
  return Response.json({ jsonrpc: '2.0', id, error }, { status });
}

/** A refusal the client should retry later (HTTP 429 or 503): `Retry-After` in seconds. */
function retryLater(status: number, code: number, message: string, id: unknown, seconds: number, data?: unknown) {
  const response = jsonRpcError(status, code, message, id, data);
  response.headers.set('retry-after', String(seconds));
  return response;
}

/** JSON-RPC code of a per-principal limit refusal (implementation-defined server error range). */
export const LIMIT_ERROR_CODE = -32000;
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * A new tool call (no `requestState`: retries of a call in progress always finish) under the
 * principal's limits: undefined when admitted, else the 429 (or 503 when the store cannot count).
 */
async function admitToolCall(
  limits: PrincipalLimits | undefined,
  principal: string,
  message: { id?: unknown; method?: unknown; params?: unknown },
  metrics: ServerMetrics | undefined,
): Promise<Response | undefined> {
  const params = message.params as { requestState?: unknown } | undefined;
  if (limits === undefined || message.method !== 'tools/call' || params?.requestState !== undefined) return undefined;
  const id = message.id ?? null;
  try {
    const admission = await limits.admitCall(principal);
    if (admission.admitted) return undefined;
    metrics?.limitHit(admission.limit);
    const { limit, retryAfterSeconds } = admission;
    return retryLater(429, LIMIT_ERROR_CODE, admission.message, id, retryAfterSeconds, { limit, retryAfterSeconds });
  } catch (error) {
    if (!isStoreUnavailableError(error)) throw error;
    const text =
      'The shared store is unreachable: per-principal limits cannot be checked, so tool calls are refused until it is back';
    return retryLater(503, -32603, text, id, STORE_RETRY_AFTER_SECONDS);
  }
}

/** What a response says, for the requests metric (a JSON body is read from a clone). */
async function outcomeOf(response: Response): Promise<RequestOutcome> {
  if (response.status === 429 || response.status === 503) return 'refused';
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
    return response.status < 400 ? 'complete' : 'error';
  }
  try {
    const body = (await response.clone().json()) as { error?: unknown; result?: { resultType?: unknown } };
    if (body.error !== undefined) return 'error';
    return body.result?.resultType === 'input_required' ? 'input_required' : 'complete';
  } catch {
    return 'error';
  }
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The MCP-Protocol-Version header must agree with the body's `_meta` version (-32020). Checked
 * before the envelope gate, whose -32022 would otherwise answer a mismatched request. The SDK
 * checks the Mcp-Method and Mcp-Name headers itself.
 */
function versionHeaderMismatch(request: Request, params: unknown): { message: string; data: unknown } | undefined {
  const header = request.headers.get('mcp-protocol-version');
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const body = meta?.[PROTOCOL_VERSION_META_KEY];
  if (header === null || typeof body !== 'string' || header === body) return undefined;
  // The SDK's own -32020 shape: `data.mismatch` names the header value and what the body says.
  const said = `the body envelope names protocol version ${body} but the MCP-Protocol-Version header names ${header}`;
  return {
    message: `Bad Request: the request headers and body disagree: ${said}`,
    data: { mismatch: { header, body: said } },
  };
}

export function createHttpFront(options: HttpFrontOptions): HttpFront {
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const inFlight = options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT;
  const budget = typeof inFlight === 'number' ? createBodyBudget(inFlight) : inFlight;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const allowedHosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const allowedOrigins = new Set(options.allowedOrigins.map((origin) => origin.toLowerCase()));
  const legacy: SessionLeg | undefined = options.sessions?.({
    factory: options.factory,
    logger: options.logger,
    maxBodyBytes,
  });
  const sdk = createMcpHandler(options.factory, {
    // 2025-11-25 traffic never reaches it: the legacy leg serves it, or the SDK refuses it.
    legacy: 'reject',
    responseMode: 'auto',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => options.logger.warn(`http: ${error.message}`, 'http_rejected'),
  });
  const operations = createOperations(options.readiness);
  if (legacy !== undefined) options.metrics?.watchLegacySessions(() => legacy.sessions);

  /**
   * `read.consumed` is set once the whole body has been read: every earlier answer closes the connection.
   * `seen.method` is the JSON-RPC method, for the requests metric.
   */
  async function handle(
    request: Request,
    read: { consumed: boolean; release(): void },
    seen: { method?: string },
  ): Promise<Response> {
    const url = new URL(request.url);
    const operational = operations.answer(request, url.pathname);
    if (operational !== undefined) return operational;
    if (url.pathname !== endpoint) return jsonRpcError(404, -32600, `Not found: the MCP endpoint is ${endpoint}`);
    if (operations.draining) {
      const response = retryLater(503, -32603, 'Service unavailable: this instance is shutting down', null, 1);
      response.headers.set('connection', 'close');
      return response;
    }
    const host = (request.headers.get('host') ?? url.host).toLowerCase();
    if (!allowedHosts.has(host)) return jsonRpcError(403, -32600, `Forbidden: Host '${host}' is not allowed`);
    const origin = request.headers.get('origin');
    if (origin !== null && !allowedOrigins.has(origin.toLowerCase())) {
      return jsonRpcError(403, -32600, `Forbidden: Origin '${origin}' is not allowed`);
    }
    // A request whose MCP-Protocol-Version header names 2026-07-28 (or later) is never 2025-era traffic,
    // whatever else it carries (the SDK's `isLegacyRequest` draws the same line): the modern path answers it.
    const legacyCandidate = legacy !== undefined && !namesModernRevision(request.headers.get('mcp-protocol-version'));
    const sessionId = legacyCandidate ? request.headers.get('mcp-session-id') : null;
    if (request.method !== 'POST' && sessionId === null) {
      const response = jsonRpcError(405, -32600, 'Method not allowed: this endpoint accepts POST only');
      response.headers.set('allow', 'POST');
      return response;
    }

    if (request.method === 'POST' && !acceptsAnswer(request.headers.get('accept'))) {
      return jsonRpcError(406, -32600, 'Not Acceptable: the client must accept application/json or text/event-stream');
    }

    let authInfo: AuthInfo | undefined;
    if (options.tokens !== undefined) {
      const token = bearerToken(request);
      const principal = token === undefined ? undefined : options.tokens.get(token);
      if (token === undefined || principal === undefined) {
        const response = jsonRpcError(401, -32600, 'Unauthorized: a valid bearer token is required');
        response.headers.set('www-authenticate', 'Bearer');
        return response;
      }
      authInfo = { token, clientId: principal, scopes: [], extra: { principal } };
    }
    const owner = authInfo?.clientId ?? '';
    if (legacy !== undefined && sessionId !== null && request.method !== 'POST') {
      return legacy.serve(sessionId, { request, owner, ...(authInfo !== undefined && { authInfo }) });
    }

    const { body, release } = await readBodyCapped(request, maxBodyBytes, { budget, timeoutMs: bodyTimeoutMs });
    read.release = release;
    if (body.kind === 'too_large') {
      return jsonRpcError(413, -32600, `Request body too large: the limit is ${maxBodyBytes} bytes`);
    }
    if (body.kind === 'busy') {
      options.logger.warn(`http: refused a request body: ${budget.maxBytes} body bytes in flight`, 'http_body_busy');
      const response = jsonRpcError(503, -32000, 'Server busy: too many request bodies in flight; retry later');
      response.headers.set('retry-after', String(BODY_BUSY_RETRY_AFTER_SECONDS));
      return response;
    }
    if (body.kind === 'timeout') {
      return jsonRpcError(408, -32600, `Request timeout: the body did not arrive within ${bodyTimeoutMs} ms`);
    }
    if (body.kind === 'too_fragmented') {
      options.logger.warn('http: refused a request body sent in too many chunks', 'http_rejected');
      return jsonRpcError(
        400,
        -32600,
        `Bad request: the body came in too many chunks (at most ${FREE_CHUNKS} plus one per ${MIN_AVERAGE_CHUNK_BYTES} bytes)`,
      );
    }
    if (body.kind === 'unreadable') return jsonRpcError(400, -32600, 'Bad request: the body could not be read');
    read.consumed = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    const message = parsed as { id?: unknown; method?: unknown; params?: unknown } | null;
    if (isPlainMessage(message) && typeof message.method === 'string') seen.method = message.method;
    // Per-principal limits, checked once a request is otherwise acceptable (just before it is served).
    const admit = () =>
      isPlainMessage(message)
        ? admitToolCall(options.limits, authInfo?.clientId ?? ANONYMOUS, message, options.metrics)
        : Promise.resolve(undefined);
    if (legacy !== undefined && legacyCandidate && isPlainMessage(message) && !hasEnvelopeClaim(message.params)) {
      // The legacy leg gets the body again in a request of its own; the client's signal goes along.
      const forwarded = new Request(request.url, {
        method: 'POST',
        headers: request.headers,
        body: body.text,
        signal: request.signal,
      });
      const input = { request: forwarded, body: parsed, owner, ...(authInfo !== undefined && { authInfo }) };
      if (message.method === 'initialize' && sessionId === null) return legacy.open(input);
      if (sessionId !== null) return (await admit()) ?? legacy.serve(sessionId, input);
    }
    if (
      message !== null &&
      typeof message === 'object' &&
      !Array.isArray(message) &&
      typeof message.method === 'string' &&
      (typeof message.id === 'string' || typeof message.id === 'number')
    ) {
      const mismatch = versionHeaderMismatch(request, message.params);
      if (mismatch !== undefined) return jsonRpcError(400, -32020, mismatch.message, message.id, mismatch.data);
      const rejection = checkRequestEnvelope(message.method, message.params, { legacy: legacy !== undefined });
      if (rejection !== undefined) {
        return jsonRpcError(400, rejection.code, rejection.message, message.id, rejection.data);
      }
      const admission = message.method === 'tools/call' ? options.admission : undefined;
      const refusal = admission?.check(owner || ANONYMOUS);
      if (refusal !== undefined) return busy(refusal, message.id);
      if (admission !== undefined) {
        const limited = await admit();
        if (limited !== undefined) return limited;
        return serveAdmitted(admission, owner || ANONYMOUS, message.id, request, () =>
          sdk.fetch(request, { parsedBody: parsed, ...(authInfo !== undefined && { authInfo }) }),
        );
      }
    }
    // The SDK takes the parsed body and never reads the request's (already read here): the request itself goes on,
    // with the client's signal, so a disconnect aborts the tool call's work (server/createServer.ts).
    return (await admit()) ?? sdk.fetch(request, { parsedBody: parsed, ...(authInfo !== undefined && { authInfo }) });
  }

  function busy(refusal: AdmissionRefusal, id: unknown): Response {
    options.logger.warn(`http: refused a tool call (${refusal.reason})`, 'http_busy');
    const data = { reason: refusal.reason, retryAfterSeconds: refusal.retryAfterSeconds };
    const response = jsonRpcError(refusal.status, SERVER_BUSY_CODE, refusal.message, id, data);
    response.headers.set('retry-after', String(refusal.retryAfterSeconds));
    return response;
  }

  /**
   * A tool call takes its place here, before the SDK sees it: while it waits it holds only its parsed body (no
   * server, no validation, no flow), and the place goes to the handler that serves it (`Admission.handOver`). It
   * starts on a turn of the event loop of its own (`Admission.acquire`), after the requests already read (a
   * `server/discover` among them is answered first).
   */
  async function serveAdmitted(
    admission: Admission,
    principal: string,
    id: unknown,
    request: Request,
    serve: () => Promise<Response>,
  ): Promise<Response> {
    let release: () => void;
    try {
      release = await admission.acquire(principal, request.signal);
    } catch (error) {
      if (error instanceof ServerBusyError) return busy(error.refusal, id);
      // The client went away while its call waited: nobody reads this answer.
      return jsonRpcError(503, SERVER_BUSY_CODE, 'The call was abandoned by its client while it waited', id);
    }
    const expire = admission.handOver(request, release);
    try {
      return await serve();
    } finally {
      expire();
    }
  }

  async function answer(request: Request): Promise<Response> {
    // Without a body there is nothing left unread. Told by the method and the declared length, not `request.body`:
    // on the Node adapter's request that builds a web stream and a full `Request` (transports/body.ts).
    const bodiless =
      request.method === 'GET' || request.method === 'HEAD' || request.headers.get('content-length') === '0';
    const read = { consumed: bodiless, release: () => {} };
    const seen: { method?: string } = {};
    let response: Response;
    try {
      response = await handle(request, read, seen);
    } catch (error) {
      options.logger.warn(`http: ${error instanceof Error ? error.message : String(error)}`, 'internal_error');
      response = jsonRpcError(500, -32603, 'Internal error');
    } finally {
      read.release();
    }
    const metrics = options.metrics;
    if (metrics !== undefined && seen.method !== undefined) {
      const method = seen.method;
      void outcomeOf(response).then((outcome) => metrics.request(method, outcome));
    }
    // An answer given before the body was read whole (413, 401, 403, 404, 405, 408, 503…) ends the
    // connection: its unread bytes would otherwise be taken for the next request on it.
    return read.consumed ? response : withConnectionClose(response);
  }

  return {
    fetch: (request) => operations.track(() => answer(request)),
    drain: () => operations.drain(),
    idle: () => operations.idle(),
    close: async () => {
      await legacy?.close();
      await sdk.close();
    },
    ...(legacy !== undefined && {
      sessions: {
        get count() {
          return legacy.sessions;
        },
        sweep: () => legacy.sweep(),
      },
    }),
  };
}

/** `response` with `Connection: close` (a copy when its headers are immutable). */
function withConnectionClose(response: Response): Response {
  try {
    response.headers.set('connection', 'close');
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set('connection', 'close');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** Media ranges under which an answer (a JSON body or an SSE stream) may come. */
const ANSWER_RANGES = new Set(['application/json', 'text/event-stream', 'application/*', 'text/*', '*/*']);

/**
 * Whether a POST's `Accept` admits an answer: a range naming `application/json` or `text/event-stream` (or a wildcard
 * over one), with a quality above 0. No header at all accepts anything (RFC 9110); the spec's clients always send both.
 */
export function acceptsAnswer(header: string | null): boolean {
  if (header === null) return true;
  return header.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const quality = params.find((param) => param.startsWith('q='));
    return ANSWER_RANGES.has(type) && (quality === undefined || Number(quality.slice(2)) > 0);
  });
}

function isPlainMessage(value: unknown): value is { id?: unknown; method?: unknown; params?: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

function hostName(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/**
 * The Host values a server bound to `host:port` answers to. Loopback binds accept the loopback
 * names; wildcard binds (0.0.0.0, ::) also accept this machine's host name and interface
 * addresses; `extra` names (`--allow-host`) are added as given; one without a port is added bare and on `port`.
 */
export function defaultAllowedHosts(
  host: string,
  port: number,
  extra: readonly string[] = [],
  machine: { hostname: string; addresses: readonly string[] } = {
    hostname: hostname(),
    addresses: Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address)),
  },
): string[] {
  const bound = hostName(host);
  const names = LOOPBACK_NAMES.includes(bound) || host === '::1' ? [...LOOPBACK_NAMES] : [bound];
  if (WILDCARD_HOSTS.has(host)) names.push(...LOOPBACK_NAMES, machine.hostname, ...machine.addresses.map(hostName));
  const withPort = [...new Set(names)].flatMap((name) => [`${name}:${port}`, ...(port === 80 ? [name] : [])]);
  // A name without a port is accepted bare too: behind a TLS proxy a client on 443 (or 80) sends no port.
  const given = extra.flatMap((name) => (/:\d+$/.test(name) ? [name] : [name, `${name}:${port}`]));
  return [...new Set([...withPort, ...given])];
}

export function defaultAllowedOrigins(hosts: readonly string[]): string[] {
  return hosts.flatMap((host) => [`http://${host}`, `https://${host}`]);
}
