/** The plan `mcp-model-input plan` prints: one page, eight sections, findings and one verdict. */

export const PLAN_FORMAT = 'mcp-model-input/plan@1';

export type Verdict = 'direct inference' | 'temporary MRTR compatibility' | 'no model required';
/**
 * How model steps reach a model: MRTR rounds (2026-07-28 clients), live sampling in a 2025-11-25
 * adapter (when only those clients must be served), the server's own provider, or no model.
 */
export type Wire = 'mrtr' | 'legacy' | 'inline' | 'none';

export interface Finding {
  /** Stable identifier, e.g. `include_context_all_servers`. */
  id: string;
  /** The workflow field the finding is about. */
  field: string;
  message: string;
}

export interface EnvelopeError {
  case: string;
  code: number;
  data: string;
  http: number;
}

/** The bounds of a model step's tool loop (SEP-1577): the server runs it, the client caps it too. */
export interface ToolLoopPlan {
  /** The tools offered (empty when the workflow does not name them). */
  tools: string[];
  /** Each round but the last: the model may call tools or answer. */
  toolChoice: 'auto';
  maxCalls: number;
  maxRounds: number;
  /** Bytes of tool results sent to the model per run. */
  maxBytes: number;
  /** When a bound is hit (or the calls are done), one last round asks for the answer with tools disabled. */
  finalToolChoice: 'none';
}

export interface RoundRow {
  round: number;
  inputKey: string;
  /** `sampling/createMessage` (MRTR), or the server's own provider call (inline). */
  method: string;
  /** A JSON Schema for the answer, or a free-text description. */
  responseSchema: Record<string, unknown> | boolean | string;
  validation: string;
  budget: { maxTokens: number; maxResponseBytes: number; maxPromptBytes?: number };
  /** Present when the step runs a tool loop: its bounds (the budget above is per round). */
  toolLoop?: ToolLoopPlan;
  /** Only in rounds filled from an audit report: what the live server sent. */
  observed?: {
    includeContext?: string;
    modelPreferences?: Record<string, unknown>;
    systemPrompt: boolean;
    /** Present (true) when the request offered tools. */
    tools?: true;
  };
}

export interface Plan {
  format: typeof PLAN_FORMAT;
  tool: string;
  decision: { architecture: string; why: string[] };
  discovery: { discover: Record<string, unknown>; toolsList: Record<string, unknown> };
  envelope: { errors: EnvelopeError[]; notifications: string };
  rounds: { wire: Wire; source: 'workflow' | 'audit'; rows: RoundRow[]; final: string; notes: string[] };
  retry: { applies: boolean; rules: string[] };
  state: {
    applies: boolean;
    protection: 'AEAD' | 'HMAC' | null;
    binding: string[];
    ttlSeconds: number | null;
    carries: string[];
    notes: string[];
  };
  safety: Array<{ rule: string; policy: string }>;
  removal: { applies: boolean; condition: string; date: string | null };
  findings: { hardRejects: Finding[]; refusals: Finding[] };
  verdict: Verdict;
}
