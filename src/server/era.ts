/**
 * The seam a protocol era plugs into. The core serves revision 2026-07-28 alone: a plain SDK
 * `Server` per serving unit, a stateless HTTP front, a gated stdio front. The legacy 2025-11-25
 * adapter (src/legacy/) fills these interfaces, and app/ passes it in; removing that era is deleting
 * its folder and its wiring in app/modelInputServer.ts (and its re-exports in entries/server.ts, the only
 * other file that may import it): the removal plan is in src/legacy/index.ts.
 */
import type {
  AuthInfo,
  CallToolResult,
  ClientCapabilities,
  Implementation,
  InputRequiredResult,
  McpServerFactory,
  Server,
  ServerContext,
  ServerOptions,
} from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { EnvelopeRejection } from '../protocol/envelope.js';

export type ToolCallOutcome = CallToolResult | InputRequiredResult;

/** How a request looks to a tool when an era serves it another way than 2026-07-28 does. */
export interface EraRequestView {
  /** For the legacy era: declared at `initialize` (a legacy request has no `_meta`). */
  clientCapabilities: ClientCapabilities;
  inputResponses: Record<string, unknown> | undefined;
  /** Why the client's model cannot serve this call, if it cannot. */
  hostUnavailable?: string;
  /** Set with `hostUnavailable` when the reason is that the client never declared sampling (not a refusal). */
  samplingUndeclared?: boolean;
  /** The client's self-reported name from `initialize` (display only). */
  clientName?: string;
  /** Live sampling requests one call may send (`--max-samples-per-call`): a model loop keeps within it. */
  maxSamples?: number;
}

/** The server side: builds each serving unit's server, and wraps every `tools/call` entry. */
export interface ServerEra {
  createServer(identity: Implementation, options: ServerOptions): Server;
  /** Runs one entry of a tools/call; `run` gets the era's view of the request (undefined on 2026-07-28). */
  serveToolCall(
    server: Server,
    ctx: ServerContext,
    tool: string,
    run: (view: EraRequestView | undefined) => Promise<ToolCallOutcome>,
  ): Promise<ToolCallOutcome>;
}

/**
 * What the stdio gate does with one inbound message (`refuse`: answer with the error, never deliver; `hold`: keep
 * it, in order, until the tracker stops `holding` — the era is being decided — then ask again).
 */
export type InboundVerdict = 'gate' | 'pass' | 'drop' | 'hold' | { refuse: EnvelopeRejection };

/** The stdio side: tells the envelope gate, message by message, which era the connection serves. */
export interface StdioEraTracker {
  inbound(message: unknown): InboundVerdict;
  /** True while messages are held (a handshake is unanswered); asked after every outbound message. */
  holding?(): boolean;
  /** A gated request passed the envelope check and goes to the SDK. */
  admitted(method: string): void;
  /** An outbound message (the answer to a handshake may settle the era). */
  outbound(message: unknown): void;
}

/** A request the HTTP front hands to a sessionful leg, after its Host/Origin, bearer and body checks. */
export interface SessionRequest {
  request: Request;
  /** The parsed JSON body (POST only). */
  body?: unknown;
  authInfo?: AuthInfo;
  /** The principal the session belongs to (empty without tokens). */
  owner: string;
}

/** The HTTP side: sessions for clients that open with `initialize`. */
export interface SessionLeg {
  /** An `initialize` POST: opens a session. */
  open(input: SessionRequest): Promise<Response>;
  /** Any request carrying this session id. */
  serve(sessionId: string, input: SessionRequest): Promise<Response>;
  /** Closes idle sessions now; resolves with how many. */
  sweep(): Promise<number>;
  readonly sessions: number;
  close(): Promise<void>;
}

export type SessionLegFactory = (front: {
  factory: McpServerFactory;
  logger: Logger;
  maxBodyBytes: number;
}) => SessionLeg;

/** An era plug-in: each front takes its part. */
export interface ProtocolEra {
  server: ServerEra;
  stdio: () => StdioEraTracker;
  http: SessionLegFactory;
}
