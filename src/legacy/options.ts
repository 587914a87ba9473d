/**
 * The legacy (2025-11-25) adapter's knobs and their defaults. The adapter serves clients that open
 * with `initialize`: a pinned stdio connection, or a bounded HTTP session. Sampling reaches them as
 * live `sampling/createMessage` requests sent by the SDK's legacy shim; the flow is the same.
 */
export const DEFAULT_MAX_SAMPLES_PER_CALL = 5;
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 8;
export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_IDLE_SECONDS = 1800;
/** Without --max-sessions-per-principal, one principal may hold this share of --max-sessions (at least 1). */
export const DEFAULT_SESSIONS_PER_PRINCIPAL_SHARE = 0.25;
export const DEFAULT_SESSION_LIFETIME_SECONDS = 3600;
/** When the session table is full, a session idle this long may be closed for a principal holding fewer. */
export const DEFAULT_SESSION_GRACE_SECONDS = 30;

/** The per-principal session quota for a store of `maxSessions`. */
export function defaultSessionsPerPrincipal(maxSessions: number): number {
  return Math.max(1, Math.floor(maxSessions * DEFAULT_SESSIONS_PER_PRINCIPAL_SHARE));
}

/** What the server side of the adapter needs (one per server factory). */
export interface LegacyServerOptions {
  /** Live `sampling/createMessage` requests one tool call may send; past it the call ends with `isError`. */
  maxSamplesPerCall?: number;
  /**
   * Legacy tool calls one connection (a stdio connection, an HTTP session) may have in flight at once;
   * beyond it a call ends at once with `isError`. Each may hold a live sampling request open.
   */
  maxCallsInFlight?: number;
  /** Called when a 2025-11-25 client declares `sampling` at `initialize`. */
  onSamplingNegotiated?: () => void;
}

/** The HTTP session bounds. Sessions exist only for 2025-11-25 clients. */
export interface LegacyHttpOptions {
  /** Sessions held at once; an `initialize` beyond it gets 503 (after idle sessions are reclaimed). */
  maxSessions?: number;
  /** A session with no request in flight and no traffic for this long is closed (404 afterwards). */
  sessionIdleSeconds?: number;
  /**
   * Sessions one principal may hold; callers without a bearer token share one quota, unless `localAnonymous`
   * (default: a quarter of `maxSessions`, at least 1). An `initialize` beyond it gets 429.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * When the table is full, a session with no request in flight and no traffic for this long is closed to let in a
   * principal holding fewer: the least recently used one of the principal holding the most (default 30 s).
   */
  sessionGraceSeconds?: number;
  /**
   * Callers without a bearer token are local clients that nothing tells apart (the server has no tokens and listens
   * on loopback only): each of their sessions counts as a principal of its own, so they share no quota and
   * `maxSessions` with the grace above is what bounds them.
   */
  localAnonymous?: boolean;
  /** No session lives longer than this, busy or not (default 3600 s); then 404, and the client starts anew. */
  sessionLifetimeSeconds?: number;
  /** The store's clock, in milliseconds; injected in tests. */
  now?: () => number;
  /**
   * Put before every session id this instance mints (`serve --instance-id i1` gives `i1.<uuid>`), so a
   * load balancer can send a session's later requests back to the instance that holds its live stream.
   */
  sessionIdPrefix?: string;
}
