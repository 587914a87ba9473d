/**
 * A workflow file: one model-assisted tool as its author describes it — what it does, step by step,
 * what its product requires, and optionally an implementation (proposed or existing) to check.
 * The published JSON Schema (schemas/workflow.schema.json) is the contract; these types mirror it.
 */
import type { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';

export const WORKFLOW_FORMAT_VERSION = 1;
export type ClientRevision = typeof MODERN_REVISION | typeof LEGACY_REVISION;

/** What a model step's answer may decide. The last three are never acceptable. */
export type StepDecision = 'content' | 'selection' | 'identity' | 'authorization' | 'consent';

export interface ModelPreferencesHint {
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
  hints?: string[];
}

/**
 * A model step that uses tools (SEP-1577): the server offers them inside the step's sampling request
 * and runs the loop itself, within these bounds; the defaults are the planner's (see `toolLoopOf`).
 */
export interface StepTools {
  /** The tools offered. Absent: not declared (a workflow inferred from an audit, which does not record them). */
  names?: string[];
  /** Tool calls per run. Default 12. */
  maxCalls?: number;
  /** Sampling rounds of the loop, the last one (`toolChoice: "none"`) included. Default `maxCalls + 1`. */
  maxRounds?: number;
  /** Bytes of tool results sent to the model per run. Default 65536. */
  maxBytes?: number;
}

export interface DeterministicStep {
  name: string;
  kind: 'deterministic';
  purpose: string;
}

export interface ModelStep {
  name: string;
  kind: 'model';
  purpose: string;
  /** The key of the embedded request on the wire (`inputRequests.<key>`). */
  inputKey: string;
  /** Exactly one of: a JSON Schema the answer must satisfy, or a free-text description. */
  output: { schema: Record<string, unknown> | boolean } | { text: string };
  budget: { maxTokens: number; maxResponseBytes?: number; maxPromptBytes?: number };
  preferences?: ModelPreferencesHint;
  /** False when the user is never told this model call happens (a covert call). Default true. */
  disclosed?: boolean;
  /** What the answer is used for. Default `['content']`. */
  decides?: StepDecision[];
  /** True when plain code could produce this step's output (sorting, filtering, parsing…). */
  replaceableByCode?: boolean;
  /** Present when the model is offered tools inside the step's sampling request (a tool loop). */
  tools?: StepTools;
}

export type WorkflowStep = DeterministicStep | ModelStep;

export interface WorkflowDesign {
  /** A new design, or an existing implementation being migrated. Default `new`. */
  status?: 'new' | 'existing';
  /** Present when the design uses the client's model through sampling. */
  sampling?: {
    /** `mrtr`: embedded in `input_required`; `live`: a server-to-client request on the connection. */
    delivery: 'mrtr' | 'live';
    includeContext?: 'none' | 'thisServer' | 'allServers';
    tools?: boolean;
  };
  /** True when the design depends on `initialize`, `Mcp-Session-Id` or per-connection memory. */
  sessions?: boolean;
  state?: { protection: 'none' | 'hmac' | 'aead'; affectsLogic?: boolean };
  retries?: { reuseIds?: boolean; changeArguments?: boolean };
  /** The client-side loop the design ships or relies on, if any. */
  clientLoop?: { capabilityCheck: boolean; approval: boolean; validation: boolean; roundCap: number | null };
  /** Where the server takes the caller's identity from. */
  identity?: 'principal' | 'clientInfo' | 'serverInfo' | '_meta';
}

export interface Workflow {
  $schema?: string;
  version: typeof WORKFLOW_FORMAT_VERSION;
  server?: { name: string; version: string };
  tool: {
    name: string;
    title?: string;
    description: string;
    /** The tool's `inputSchema`: a JSON Schema with `type: "object"`. */
    arguments: Record<string, unknown> & { type: 'object' };
  };
  steps: WorkflowStep[];
  requirements: {
    /** Is using the client's model or credentials a real product requirement? */
    clientModel: { required: boolean; reason?: string };
    clientRevisions: ClientRevision[];
  };
  state: { secret: boolean; carries?: string[]; ttlSeconds?: number };
  limits?: { maxRounds?: number };
  removal?: { condition?: string; date?: string };
  design?: WorkflowDesign;
}

export function isModelStep(step: WorkflowStep): step is ModelStep {
  return step.kind === 'model';
}
