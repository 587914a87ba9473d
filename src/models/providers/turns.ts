/**
 * The part of a `sampling/createMessage` request every provider adapter needs: the system prompt,
 * the conversation as turns of text, `tool_use` and `tool_result` blocks, and the tools offered with
 * the tool choice (tools in sampling, SEP-1577). Images and audio, a `tool_use` in a user turn, a
 * `tool_result` in an assistant turn, and tool results that are not text are refused before a
 * request is made.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ToolUseContent,
} from '@modelcontextprotocol/server';

import type { ModelUsage } from '../modelSource.js';
import { ModelProviderError } from '../providerError.js';
import { displayModelName, tokenCount } from '../untrusted.js';

export type TurnBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  /** A tool's result as the text the model reads; `isError` when the tool failed. */
  | { type: 'tool_result'; toolUseId: string; text: string; isError: boolean };

export interface Turn {
  role: 'user' | 'assistant';
  blocks: TurnBlock[];
}

/** A tool offered to the model: MCP's `Tool` fields a provider takes. */
export interface ProviderTool {
  name: string;
  description?: string;
  /** The tool's JSON Schema (`type: "object"`), passed as is. */
  inputSchema: Record<string, unknown>;
}

export type ToolMode = 'auto' | 'required' | 'none';

export interface Conversation {
  system: string | undefined;
  turns: Turn[];
  /** The tools offered; absent when the request offers none (no `tools`, or an empty list). */
  tools?: ProviderTool[];
  /** The request's `toolChoice.mode` (`auto` when it gives none); only with tools. */
  toolChoice?: ToolMode;
}

function refused(model: string, what: string, hint: string): ModelProviderError {
  return new ModelProviderError('bad_request', `${model}: ${what}`, { model, hint });
}

/** The text a model reads in a tool result: its text blocks, and the text of embedded resources. */
function resultText(block: { content: unknown[]; structuredContent?: unknown }, model: string): string {
  const texts = block.content.map((inner) => {
    const item = inner as { type?: unknown; text?: unknown; resource?: { text?: unknown } };
    if (item.type === 'text' && typeof item.text === 'string') return item.text;
    if (item.type === 'resource' && typeof item.resource?.text === 'string') return item.resource.text;
    throw refused(
      model,
      `only text is supported in tool results, got '${String(item.type)}'`,
      'send tool results as text',
    );
  });
  // A result that says everything in `structuredContent` still reaches the model.
  if (texts.length === 0 && block.structuredContent !== undefined) return JSON.stringify(block.structuredContent);
  return texts.join('\n');
}

function turnOf(message: CreateMessageRequestParams['messages'][number], model: string): Turn {
  const blocks = (Array.isArray(message.content) ? message.content : [message.content]).map((block): TurnBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'tool_use':
        if (message.role !== 'assistant') {
          throw refused(model, 'a tool_use block must be in an assistant message', 'send tool calls as the assistant');
        }
        return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
      case 'tool_result':
        if (message.role !== 'user') {
          throw refused(model, 'a tool_result block must be in a user message', 'send tool results as the user');
        }
        return {
          type: 'tool_result',
          toolUseId: block.toolUseId,
          text: resultText(block, model),
          isError: block.isError === true,
        };
      default:
        throw refused(model, `only text content is supported, got '${block.type}'`, 'send text content only');
    }
  });
  return { role: message.role, blocks };
}

export function toConversation(params: CreateMessageRequestParams, model: string): Conversation {
  const turns = params.messages.map((message) => turnOf(message, model));
  const tools = (params.tools ?? []).map((tool): ProviderTool => ({
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
  }));
  if (tools.length === 0) return { system: params.systemPrompt, turns };
  return { system: params.systemPrompt, turns, tools, toolChoice: params.toolChoice?.mode ?? 'auto' };
}

/** The turn as one string when it holds only text (joined by newlines), as text-only requests always went. */
export function plainText(turn: Turn): string | undefined {
  const texts: string[] = [];
  for (const block of turn.blocks) {
    if (block.type !== 'text') return undefined;
    texts.push(block.text);
  }
  return texts.join('\n');
}

/** A rough input size for budget checks before a call: about four characters per token. */
export function estimateInputTokens(params: CreateMessageRequestParams): number {
  let characters =
    (params.systemPrompt?.length ?? 0) + (params.tools === undefined ? 0 : JSON.stringify(params.tools).length);
  for (const message of params.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) {
      characters +=
        block.type === 'text'
          ? block.text.length
          : block.type === 'image' || block.type === 'audio'
            ? 1000
            : JSON.stringify(block).length;
    }
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

/**
 * The answer as a sampling result: one text block when the model called no tools (as always);
 * otherwise its text, if any, then one `tool_use` block per call, with `stopReason: "toolUse"`
 * whatever the provider said (some OpenAI-compatible servers report `stop` with tool calls).
 */
export function answerResult(
  text: string,
  calls: readonly ToolUseContent[],
  model: string,
  stopReason: string | undefined,
): CreateMessageResult | CreateMessageResultWithTools {
  if (calls.length === 0) return textResult(text, model, stopReason);
  const lead = text === '' ? [] : [{ type: 'text' as const, text }];
  return { role: 'assistant', content: [...lead, ...calls], model, stopReason: 'toolUse' };
}
