/**
 * The HTTP leg of the legacy (2025-11-25) adapter: sessionful Streamable HTTP for clients that open
 * with `initialize`. The SDK's stateless legacy fallback answers each POST on a fresh instance, so it
 * cannot carry the live `sampling/createMessage` requests the legacy shim sends; here each session
 * keeps one server instance (from the same factory) on one SDK `WebStandardStreamableHTTPServerTransport`,
 * and the sampling request travels on the SSE stream of the `tools/call` POST that needs it.
 *
 * The front decides what reaches this leg (an `initialize`, or anything carrying `Mcp-Session-Id`
 * without a 2026-07-28 envelope or `MCP-Protocol-Version` header) after its Host/Origin, bearer and
 * body checks. Sessions are bounded
 * by the store: at most `maxSessions`, closed after `sessionIdleSeconds` without traffic or on DELETE;
 * when the table is full, one idle past `sessionGraceSeconds` of the principal holding the most makes room
 * for a principal holding fewer; an unknown session gets 404. There is no standalone GET stream: GET gets 405, as the spec allows.
 */
import { randomUUID } from 'node:crypto';

import { WebStandardStreamableHTTPServerTransport, type McpServerFactory } from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { SessionLeg, SessionRequest } from '../server/era.js';
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_GRACE_SECONDS,
  DEFAULT_SESSION_IDLE_SECONDS,
  DEFAULT_SESSION_LIFETIME_SECONDS,
  defaultSessionsPerPrincipal,
  type LegacyHttpOptions,
} from './options.js';
import { createSessionStore, type SessionStore } from './sessionStore.js';

/** The longest pause between two idle sweeps. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

export interface LegacyHttpLegOptions extends LegacyHttpOptions {
  factory: McpServerFactory;
  logger: Logger;
  /** The front's body cap, passed on to the session transports. */
  maxBodyBytes: number;
}

/**
 * Who is asking and with what (the front has read, capped and parsed the body already), and what the leg
 * answers: `open` an `initialize` POST (503 when the store is full, 429 past a principal's quota), `serve`
 * any request carrying the session id (POST, DELETE ends it, GET gets 405), `sweep` idle sessions now (also
 * done on a timer). The shapes are the era seam's (server/era.ts).
 */
export type LegacyHttpRequest = SessionRequest;
export type LegacyHttpLeg = SessionLeg;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string, id: unknown = null): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });
}

function requestId(body: unknown): string | number | undefined {
  const { id, method } = (body ?? {}) as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

/** Calls `done` when the response has been delivered: at once for JSON, at the end of an SSE stream. */
function whenDelivered(response: Response, done: () => void): Response {
  if (response.body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel: (reason) => {
      done();
      return reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function createLegacyHttpLeg(options: LegacyHttpLegOptions): LegacyHttpLeg {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = (options.sessionIdleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000;
  const maxPerOwner = options.maxSessionsPerPrincipal ?? defaultSessionsPerPrincipal(maxSessions);
  const store: SessionStore<Session> = createSessionStore<Session>({
    maxSessions,
    idleMs,
    maxPerOwner,
    maxLifetimeMs: (options.sessionLifetimeSeconds ?? DEFAULT_SESSION_LIFETIME_SECONDS) * 1000,
    graceMs: (options.sessionGraceSeconds ?? DEFAULT_SESSION_GRACE_SECONDS) * 1000,
    ...(options.now !== undefined && { now: options.now }),
  });
  const sweeper = setInterval(() => void store.sweep(), Math.min(idleMs, MAX_SWEEP_INTERVAL_MS));
  sweeper.unref();

  const full = (id: unknown): Response => {
    options.logger.warn(
      `http: refused a 2025-11-25 session: ${maxSessions} sessions are open`,
      'legacy_session_refused',
    );
    const response = jsonRpcError(
      503,
      -32000,
      `Too many sessions: this server holds at most ${maxSessions} 2025-11-25 sessions; retry later, and end sessions with DELETE`,
      id,
    );
    response.headers.set('retry-after', String(Math.ceil(Math.min(idleMs, MAX_SWEEP_INTERVAL_MS) / 1000)));
    return response;
  };

  const ownerFull = (id: unknown): Response => {
    options.logger.warn(
      `http: refused a 2025-11-25 session: the caller holds ${maxPerOwner} sessions`,
      'legacy_session_refused',
    );
    const response = jsonRpcError(
      429,
      -32000,
      `Too many sessions: one caller may hold at most ${maxPerOwner} 2025-11-25 sessions; end one with DELETE, or retry later`,
      id,
    );
    response.headers.set('retry-after', String(Math.ceil(Math.min(idleMs, MAX_SWEEP_INTERVAL_MS) / 1000)));
    return response;
  };

  async function deliver(id: string, session: Session, input: LegacyHttpRequest): Promise<Response> {
    const release = requestId(input.body) === undefined ? () => {} : store.hold(id);
    try {
      const response = await session.transport.handleRequest(input.request, {
        ...(input.body !== undefined && { parsedBody: input.body }),
        ...(input.authInfo !== undefined && { authInfo: input.authInfo }),
      });
      return whenDelivered(response, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  return {
    async open(input) {
      const id = `${options.sessionIdPrefix ?? ''}${randomUUID()}`;
      // Local callers without a token are told apart by nothing: each session is a principal of its own.
      const principal = input.owner === '' && options.localAnonymous === true ? `\0local/${id}` : input.owner;
      const room = await store.roomFor(principal);
      if (room === 'owner_full') return ownerFull(requestId(input.body) ?? null);
      if (room === 'full') return full(requestId(input.body) ?? null);
      const product = await options.factory({
        era: 'legacy',
        ...(input.authInfo !== undefined && { authInfo: input.authInfo }),
        requestInfo: input.request,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        maxRequestBodySize: options.maxBodyBytes,
      });
      const session: Session = {
        transport,
        close: async () => {
          await transport.close().catch(() => {});
          await product.close().catch(() => {});
        },
      };
      await product.connect(transport);
      // Checked again: other sessions may have opened while the factory ran.
      if (!store.add(id, input.owner, session, principal)) {
        await session.close();
        const again = await store.roomFor(principal);
        return again === 'owner_full' ? ownerFull(requestId(input.body) ?? null) : full(requestId(input.body) ?? null);
      }
      const response = await deliver(id, session, input);
      if (response.status !== 200) await store.close(id);
      return response;
    },

    async serve(sessionId, input) {
      const session = store.get(sessionId, input.owner);
      if (session === undefined) return jsonRpcError(404, -32001, 'Session not found', requestId(input.body) ?? null);
      const method = input.request.method.toUpperCase();
      if (method === 'GET') {
        const response = jsonRpcError(405, -32000, 'Method not allowed: this server opens no standalone SSE stream');
        response.headers.set('allow', 'POST, DELETE');
        return response;
      }
      const response = await deliver(sessionId, session, input);
      if (method === 'DELETE' && response.status === 200) await store.close(sessionId);
      return response;
    },

    sweep: () => store.sweep(),
    get sessions() {
      return store.size;
    },
    close: async () => {
      clearInterval(sweeper);
      await store.closeAll();
    },
  };
}
