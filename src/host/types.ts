/**
 * The shapes the host runtime's parts share: one round of embedded requests as the policies,
 * the approver and the audit log see it.
 */
import type { CreateMessageRequestParams, ElicitRequestFormParams } from '@modelcontextprotocol/client';

/** Who the host is talking to. The name is what the server said about itself: unverified. */
export interface ConnectedServer {
  /** `serverInfo.name` from discovery (or `initialize`); `unknown` when it gave none. */
  name: string;
  version?: string;
  /**
   * A stable key for remembering and rate limiting: the URL for HTTP (`http://127.0.0.1:8080/mcp`),
   * `stdio:` + the command line for stdio.
   */
  key: string;
}

/** One embedded request exactly as the server sent it (nothing validated yet). */
export interface RawInputRequest {
  key: string;
  method: string;
  params: unknown;
}

/** One embedded request after validation. */
export type ValidInputRequest =
  | { key: string; method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { key: string; method: 'elicitation/create'; params: ElicitRequestFormParams }
  | { key: string; method: 'roots/list'; params: Record<string, never> };

/** Where a call is when a policy looks at it. */
export interface CallPosition {
  server: ConnectedServer;
  /** The authenticated principal the host acts as on this server, when it knows one. */
  principal?: string;
  tool: string;
  /** 1-based: the round of `input_required` results this call is answering. */
  round: number;
}

/** What the approver is shown: every sampling request of one round, in one dialog. */
export interface ApprovalRound extends CallPosition {
  requests: Array<Extract<ValidInputRequest, { method: 'sampling/createMessage' }>>;
  /** Per request, in order: the id of the host model that will answer it (resolved as the host resolves it). */
  answeredBy?: readonly string[];
}

/**
 * `approve`: this round; `approve_call`: this round and the rest of this call;
 * `always`: remembered for this server and tool (the approver persists it); `deny`: stop.
 */
export type ApprovalDecision =
  /** `by: 'rule'` when a rules file decided (audited as `approved_rule`). */
  { kind: 'approve'; by?: 'rule' } | { kind: 'approve_call' } | { kind: 'always' } | { kind: 'deny'; reason: string };

export interface Approver {
  review(round: ApprovalRound, signal?: AbortSignal): Promise<ApprovalDecision>;
}

/** The decision the audit log records for one embedded request. */
export type AuditDecision =
  'approved' | 'approved_call' | 'approved_always' | 'approved_rule' | 'denied' | 'refused' | 'fulfilled' | 'failed';

/** One audit line. Never prompt or response text (tool names and targets, such as paths, are shown). */
export interface AuditEntry {
  time: string;
  server: string;
  serverKey: string;
  principal?: string;
  tool: string;
  method: string;
  key: string;
  round: number;
  /** Bytes of the request's messages + system prompt (request), or of the answer sent back (fulfilled). */
  bytes?: number;
  /** Tokens spent (input + output) when known. */
  tokens?: number;
  model?: string;
  decision: AuditDecision;
  /** Error code or short reason for refused/denied/failed. */
  reason?: string;
  /** In a tool loop (SEP-1577), on a request's line: the tools offered, comma-separated. */
  tools?: string;
  /** …its `toolChoice` mode (`auto` when it gave none). */
  toolChoice?: string;
  /** …and the tool calls already made in its conversation, `name target; …`. */
  toolCalls?: string;
  /** On a fulfilled line: the tool calls the model's answer asks for, `name target; …`. */
  toolUse?: string;
}
