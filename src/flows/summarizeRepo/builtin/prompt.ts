import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

/** The fields every summarize_repo prompt starts with. */
export interface PromptHeader {
  repository?: string;
  audience?: string;
}

/** The text of the user messages, in order; only text blocks count (content may be one block or an array). */
export function userText(params: CreateMessageRequestParams): string {
  const parts: string[] = [];
  for (const message of params.messages) {
    if (message.role !== 'user') continue;
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) {
      if (block.type === 'text') parts.push(block.text);
    }
  }
  return parts.join('\n\n');
}

function headerField(text: string, field: string): string | undefined {
  const match = new RegExp(`^[ \\t]*${field}[ \\t]*:[ \\t]*(.*\\S)[ \\t]*$`, 'im').exec(text);
  return match?.[1];
}

/** Reads `Repository:` and `Audience:` lines; pass only the prompt's own text, not embedded file contents. */
export function readHeader(text: string): PromptHeader {
  const header: PromptHeader = {};
  const repository = headerField(text, 'Repository');
  const audience = headerField(text, 'Audience');
  if (repository !== undefined) header.repository = repository;
  if (audience !== undefined) header.audience = audience;
  return header;
}
