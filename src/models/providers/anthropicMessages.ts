/**
 * `anthropic:MODEL`: the native Messages API through the official `@anthropic-ai/sdk` client, as a
 * `CompletionModel`.
 *
 * Tools in sampling map to native tool use: MCP `tools` become `tools` (`inputSchema` as
 * `input_schema`), `toolChoice.mode` becomes `tool_choice` (`auto` → `auto`, `required` → `any`,
 * `none` → `none`); `tool_use` and `tool_result` blocks become the API's own blocks (`toolUseId` as
 * `tool_use_id`, `isError` as `is_error`). The answer's `tool_use` blocks come back as MCP's, with
 * `stopReason: "toolUse"`.
 */
import type { Anthropic } from '@anthropic-ai/sdk';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';
import type { ContentBlockParam, MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';

import type { Logger } from '../../logger.js';
import type { CompletionModel, ModelCompletionRequest } from '../modelSource.js';
import { classifySdkError, type SdkErrorClasses } from './failure.js';
import { badResponse, finishedAnswer, providerContext, refusedError, retryingModel, toolUses } from './adapter.js';
import type { RetryPolicy } from './retry.js';
import {
  answerUsage,
  plainText,
  reportedModel,
  toConversation,
  usageField,
  type Conversation,
  type ToolMode,
  type Turn,
  type TurnBlock,
} from './turns.js';

export interface AnthropicMessagesModelOptions {
  /** The model id, e.g. `claude-haiku-4-5`. */
  model: string;
  apiKey: string;
  /** Defaults to the SDK's (https://api.anthropic.com). */
  baseURL?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
}

// `model` and `usage` are read leniently: a bad one must not spoil an otherwise good answer.
const message = z.looseObject({
  model: z.unknown(),
  content: z.array(
    z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      id: z.unknown().optional(),
      name: z.unknown().optional(),
      input: z.unknown().optional(),
    }),
  ),
  stop_reason: z.string().nullish(),
  usage: z.unknown(),
});

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  model_context_window_exceeded: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

const TOOL_CHOICES: Readonly<Record<ToolMode, ToolChoice>> = {
  auto: { type: 'auto' },
  required: { type: 'any' },
  none: { type: 'none' },
};

function messageBlock(block: TurnBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.text,
        ...(block.isError && { is_error: true }),
      };
  }
}

/** A text-only turn as one string (as always); one with tool blocks as the API's content blocks. */
function messageOf(turn: Turn): MessageParam {
  return { role: turn.role, content: plainText(turn) ?? turn.blocks.map(messageBlock) };
}

function messageTools(conversation: Conversation): { tools?: Tool[]; tool_choice?: ToolChoice } {
  if (conversation.tools === undefined) return {};
  return {
    tools: conversation.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      input_schema: tool.inputSchema as Tool['input_schema'],
    })),
    ...(conversation.toolChoice !== undefined && { tool_choice: TOOL_CHOICES[conversation.toolChoice] }),
  };
}

export function createAnthropicMessagesModel(options: AnthropicMessagesModelOptions): CompletionModel {
  const name = `anthropic:${options.model}`;
  // The SDK is loaded on the first call, so a server on the built-in model never pays for it.
  let loaded: Promise<{ client: Anthropic; errors: SdkErrorClasses }> | undefined;
  const load = () =>
    (loaded ??= import('@anthropic-ai/sdk').then((sdk) => ({
      client: new sdk.Anthropic({
        apiKey: options.apiKey,
        ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
        timeout: options.timeoutMs,
        maxRetries: 0,
        logLevel: 'off',
        openTelemetry: false,
      }),
      errors: sdk,
    })));
  let errors: SdkErrorClasses | undefined;
  const context = providerContext(name, 'ANTHROPIC', options.timeoutMs);
  const invalid = badResponse(name, 'check ANTHROPIC_BASE_URL points at the Messages API, or try another model');

  /** The Messages API body for `params`, and the conversation it was made from. */
  function messagesRequest(params: CreateMessageRequestParams) {
    const conversation = toConversation(params, name);
    const { system, turns } = conversation;
    const body = {
      model: options.model,
      max_tokens: params.maxTokens,
      messages: turns.map(messageOf),
      ...messageTools(conversation),
      ...(system !== undefined && { system }),
      ...(params.temperature !== undefined && { temperature: params.temperature }),
      ...(params.stopSequences !== undefined &&
        params.stopSequences.length > 0 && { stop_sequences: params.stopSequences }),
    };
    return { conversation, body };
  }

  async function attempt(request: ModelCompletionRequest, signal: AbortSignal) {
    const { params } = request;
    const { conversation, body } = messagesRequest(params);
    const sdk = await load();
    errors = sdk.errors;
    const raw: unknown = await sdk.client.messages.create(
      body,
      // The SDK's own timeout stops at the headers; the signal's deadline covers the body too.
      { timeout: options.timeoutMs, maxRetries: 0, signal },
    );
    const parsed = message.safeParse(raw);
    if (!parsed.success) throw invalid('the answer is not a Messages API response');
    const answer = parsed.data;
    const text = answer.content
      .filter((block) => block.type === 'text' && block.text !== undefined)
      .map((block) => block.text)
      .join('');
    const rawCalls = answer.content.filter((block) => block.type === 'tool_use');
    // Billed even when the answer is then rejected; counts that make no sense are estimated instead.
    request.onUsage?.(
      answerUsage(
        { input: usageField(answer.usage, 'input_tokens'), output: usageField(answer.usage, 'output_tokens') },
        params,
        rawCalls.length === 0 ? text : text + JSON.stringify(rawCalls),
      ),
    );
    if (answer.stop_reason === 'refusal') {
      throw refusedError(name);
    }
    const calls = toolUses(rawCalls, conversation.tools !== undefined, invalid);
    const model = reportedModel(answer.model, options.model);
    return finishedAnswer({ text, calls }, model, answer.stop_reason, STOP_REASONS);
  }

  return retryingModel({
    name,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    logger: options.logger,
    attempt,
    body: (params) => messagesRequest(params).body,
    classify: (error, timedOut) => classifySdkError(error, errors, context, timedOut),
  });
}
