/**
 * What a tool is to the server: a descriptor plus a handler that may answer
 * `input_required`. The server owns the wire; the tool sees only validated arguments
 * and a transport-neutral context.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  InputRequiredResult,
  LoggingLevel,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

/** Everything a tool handler may know about the request it serves. */
export interface ToolContext {
  /** Who is calling: the bearer-token principal over HTTP, the OS user on stdio, or `anonymous`. */
  principal: string;
  /** The client's self-reported name (`clientInfo`, or `initialize` on 2025-11-25): display only, never identity. */
  clientName?: string;
  /** The capabilities this request declared (each request declares its own). */
  clientCapabilities: ClientCapabilities;
  /** The echoed `requestState`, untrusted, exactly as received (undefined on a first call). */
  requestState: unknown;
  /** This retry's `inputResponses`, untrusted (undefined on a first call). */
  inputResponses: Record<string, unknown> | undefined;
  signal: AbortSignal;
  /** Reports progress when the request carried a `progressToken` (a no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a `notifications/message` log entry to the client (the SDK drops it below the level a
   * 2025-11-25 client set with `logging/setLevel`). Never put secrets or prompt text in `data`.
   */
  log(level: LoggingLevel, data: unknown): Promise<void>;
  /**
   * Legacy (2025-11-25) only: why the client's model cannot serve this call — sampling not declared
   * at `initialize`, or a sampling request refused during the call. A flow that needs the host's model
   * then answers `isError` naming it (instead of -32021), or says that a server-owned model answered.
   */
  hostUnavailable?: string;
  /**
   * Legacy (2025-11-25) only, with `hostUnavailable`: the reason is that the client declared no sampling at
   * `initialize` (its user needs another client or a server-side model), not that it refused a request.
   */
  samplingUndeclared?: boolean;
  /**
   * Legacy (2025-11-25) only: how many live sampling requests this call may send (`--max-samples-per-call`). A
   * flow with a model loop keeps its rounds within it.
   */
  maxSamples?: number;
  /**
   * Adds tokens a server-owned model spent for this principal to its daily budget
   * (`--principal-token-budget`); fire and forget (a store failure is logged, not thrown).
   */
  chargeModelTokens?(tokens: number): void;
  /**
   * The state comes from the server's own task store (the tasks extension), never from a client: it may be opened
   * again after an instance died mid-run, so the single-use check does not apply to it.
   */
  serverHeldState?: boolean;
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  /** When set, every complete result must carry matching `structuredContent`. */
  outputSchema?: z.ZodType;
  annotations?: ToolAnnotations;
  /**
   * Whether a call may run as a task (the `io.modelcontextprotocol/tasks` extension): `never` (the default),
   * `optional` (a task when the request declared the extension), `always` (-32021 when it did not).
   */
  task?: 'never' | 'optional' | 'always';
  /**
   * The tool asks its first questions over MRTR and becomes a task on the retry that answers them (SEP-2663: MRTR,
   * then a task): a new call runs as an ordinary one (`input_required` rounds), and a retry from a request that
   * declared the extension is answered `CreateTaskResult`, the task starting from that retry's state and answers.
   */
  taskAfterInput?: boolean;
  run(args: z.output<S>, ctx: ToolContext): Promise<CallToolResult | InputRequiredResult>;
}

/** Erases the argument type so tools of different shapes share one registry. */
export type AnyToolDefinition = ToolDefinition<z.ZodObject>;

export function defineTool<S extends z.ZodObject>(tool: ToolDefinition<S>): AnyToolDefinition {
  return tool as unknown as AnyToolDefinition;
}

/** The -32602 message for arguments that fail a tool's schema: every issue, with its path. */
export function invalidArgumentsMessage(toolName: string, error: z.ZodError): string {
  const issues = error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`);
  return `Invalid arguments for ${toolName}: ${issues.join('; ')}`;
}
