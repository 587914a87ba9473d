import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

/**
 * One model call, shaped like an MCP `sampling/createMessage` request so that the host's model
 * (over an MRTR round) and a server-owned model are interchangeable for the flow.
 */
export interface ModelCompletionRequest {
  /** The input key the flow asks for, e.g. `'pick_files'` or `'summary'`; a hint, not a contract. */
  key: string;
  params: CreateMessageRequestParams;
  signal?: AbortSignal;
}

/** A server-owned model source: answers a completion request with a sampling result. */
export interface CompletionModel {
  readonly name: string;
  complete(request: ModelCompletionRequest): Promise<CreateMessageResult>;
}
