/**
 * The part of a `sampling/createMessage` request every provider adapter needs: the system prompt and
 * the conversation as plain text turns. Only text content is supported; anything else (images,
 * audio, tool use) is refused before a request is made.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { ModelUsage } from '../modelSource.js';
import { ModelProviderError } from '../providerError.js';
import { displayModelName, tokenCount } from '../untrusted.js';

export interface TextTurn {
  role: 'user' | 'assistant';
  text: string;
}

export interface TextConversation {
  system: string | undefined;
  turns: TextTurn[];
}

export function toTextConversation(params: CreateMessageRequestParams, model: string): TextConversation {
  if (params.tools !== undefined && params.tools.length > 0) {
    throw new ModelProviderError('bad_request', `${model}: tools in sampling requests are not supported`, {
      model,
      hint: 'send the request without tools',
    });
  }
  const turns = params.messages.map((message): TextTurn => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const texts = blocks.map((block) => {
      if (block.type !== 'text') {
        throw new ModelProviderError('bad_request', `${model}: only text content is supported, got '${block.type}'`, {
          model,
          hint: 'send text content only',
        });
      }
      return block.text;
    });
    return { role: message.role, text: texts.join('\n') };
  });
  return { system: params.systemPrompt, turns };
}

/** A rough input size for budget checks before a call: about four characters per token. */
export function estimateInputTokens(params: CreateMessageRequestParams): number {
  let characters = params.systemPrompt?.length ?? 0;
  for (const message of params.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) characters += block.type === 'text' ? block.text.length : 1000;
  }
  return Math.ceil(characters / 4);
}

/** A rough output size: about four characters per token. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The tokens of one provider answer: each count as the provider reported it when it is a
 * non-negative safe integer, otherwise (missing, malformed, negative, fractional) the estimate —
 * so that nonsense neither corrupts the totals nor slips past `--max-model-tokens`.
 */
export function answerUsage(
  reported: { input: unknown; output: unknown },
  params: CreateMessageRequestParams,
  text: string,
): ModelUsage {
  const input = tokenCount(reported.input);
  const output = tokenCount(reported.output);
  return {
    inputTokens: input ?? estimateInputTokens(params),
    outputTokens: output ?? estimateTextTokens(text),
    ...((input === undefined || output === undefined) && { estimated: true }),
  };
}

/** A field of a provider's `usage` object, whatever that object turned out to be. */
export function usageField(usage: unknown, field: string): unknown {
  return typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>)[field] : undefined;
}

/** The model name an answer reports, made safe to log and return; the configured id when it names none. */
export function reportedModel(reported: unknown, configured: string): string {
  return displayModelName(typeof reported === 'string' ? reported : undefined, configured);
}

/** A sampling result with one text block. */
export function textResult(text: string, model: string, stopReason: string | undefined): CreateMessageResult {
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model,
    ...(stopReason !== undefined && { stopReason }),
  };
}
