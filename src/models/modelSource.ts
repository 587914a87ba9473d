import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

/** Tokens one model answer cost, as the provider reported them. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
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
}

/** A server-owned model source: answers a completion request with a sampling result. */
export interface CompletionModel {
  readonly name: string;
  complete(request: ModelCompletionRequest): Promise<CreateMessageResult>;
}
