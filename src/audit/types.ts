/** What `audit` reports: every rule as pass / fail / not applicable, plus what it observed. */

export const AUDIT_FORMAT = 'mcp-model-input/audit@1';

export type RuleStatus = 'pass' | 'fail' | 'not_applicable';

export interface RuleResult {
  id: string;
  title: string;
  /** The specification page the rule comes from. */
  spec: string;
  status: RuleStatus;
  detail: string;
}

export type AuditTarget = { transport: 'stdio'; command: string } | { transport: 'http'; url: string };

/** One embedded request of the audited tool's flow, as the server sent it (never its prompt text). */
export interface ObservedRequest {
  round: number;
  inputKey: string;
  method: string;
  maxTokens?: number;
  includeContext?: string;
  modelPreferences?: Record<string, unknown>;
  systemPrompt: boolean;
  messages: number;
  promptBytes: number;
  tools: boolean;
}

export interface AuditObservations {
  server?: { name: string; version: string };
  tools: string[];
  tool?: { name: string; arguments: Record<string, unknown>; description?: string; inputSchema?: unknown };
  /** The capabilities the tool's flow was driven with. */
  declaredCapabilities?: Record<string, unknown>;
  rounds: ObservedRequest[];
  /** Largest requestState seen, and whether it decoded to readable JSON (the client could read it). */
  requestState?: { bytes: number; readable: boolean };
  completed: boolean;
}

export interface AuditReport {
  format: typeof AUDIT_FORMAT;
  protocolVersion: string;
  /** The revision the server was found to speak, asked first: 2026-07-28, an older one (`initialize`), or null. */
  negotiated?: string | null;
  target: AuditTarget;
  summary: { pass: number; fail: number; notApplicable: number };
  rules: RuleResult[];
  observed: AuditObservations;
  /** When something failed on stdio: the tail of the server's standard error. */
  diagnostics?: string;
}
