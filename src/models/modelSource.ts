import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/server';

/** Tokens one model answer cost, as the provider reported them. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Some count is an estimate (about four characters per token): the provider reported none, or nonsense. */
  estimated?: boolean;
}

/** The wall-clock budget of all server-owned model calls of one tool call (`--model-deadline`). */
export interface ModelDeadline {
  /** The whole budget, for messages. */
  readonly totalMs: number;
  /** What is left of it now (zero or less when spent). */
  leftMs(): number;
}

/**
 * One model call, shaped like an MCP `sampling/createMessage` request so that the host's model
 * (over an MRTR round) and a server-owned model are interchangeable for the flow.
 */
export interface ModelCompletionRequest {
  /** The input key the flow asks for, e.g. `'pick_files'` or `'summary'`; a hint, not a contract. */
  key: string;
  params: CreateMessageRequestParams;
  signal?: AbortSignal;
  /**
   * Called with the tokens of every answer a provider sent back — also for an answer that is then
   * rejected (a refusal, a malformed body), since it was billed. Models without token counts never call it.
   */
  onUsage?: (usage: ModelUsage) => void;
  /**
   * Set by the usage meter: models that wait (retries, `Retry-After`) give up instead of waiting past it.
   * The meter also aborts `signal` when it passes.
   */
  deadline?: ModelDeadline;
}

/** A server-owned model source: answers a completion request with a sampling result. */
export interface CompletionModel {
  readonly name: string;
  /**
   * Whether the model can take a request that offers `tools`/`toolChoice` and answer with `tool_use`
   * blocks (tools in sampling, SEP-1577). Absent means no: explore mode is not offered to it.
   */
  readonly usesTools?: boolean;
  complete(request: ModelCompletionRequest): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /**
   * UTF-8 bytes of the request body the model's provider would receive for `params` (messages, system
   * prompt, tools with their descriptions and schemas, tool results), serialized as it is sent. Models
   * without one are measured by the host on the JSON of `params`.
   */
  requestBytes?(params: CreateMessageRequestParams): Promise<number>;
}
