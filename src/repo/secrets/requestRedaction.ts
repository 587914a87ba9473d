/**
 * The one redactor of everything a tool sends to a model: every text block of every message and the system prompt
 * of a `sampling/createMessage` request, in one scan. summarize_repo's prompts and every kit tool's questions go
 * through it, whatever model source answers them.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { redactTexts, type RedactedText } from './scanner.js';

export interface RedactedRequest<P extends CreateMessageRequestParams> {
  params: P;
  /** One result per text redacted (messages' text blocks in order, then the system prompt). */
  results: RedactedText[];
}

export async function redactRequest<P extends CreateMessageRequestParams>(params: P): Promise<RedactedRequest<P>> {
  const texts: string[] = [];
  const collect = (text: string): number => texts.push(text) - 1;
  const shape = params.messages.map((message) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    return blocks.map((block) => (block.type === 'text' ? collect(block.text) : -1));
  });
  const system = params.systemPrompt === undefined ? -1 : collect(params.systemPrompt);
  const results = await redactTexts(texts);
  if (results.every((result) => result.count === 0)) return { params, results };
  const textAt = (index: number): string => results[index]!.text;
  const messages = params.messages.map((message, m) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const cleaned = blocks.map((block, b) =>
      block.type === 'text' ? { ...block, text: textAt(shape[m]![b]!) } : block,
    );
    return { ...message, content: Array.isArray(message.content) ? cleaned : cleaned[0]! };
  });
  return {
    params: { ...params, messages, ...(system >= 0 && { systemPrompt: textAt(system) }) } as P,
    results,
  };
}
