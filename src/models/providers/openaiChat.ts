/**
 * `openai:MODEL`: any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama's `/v1`, vLLM,
 * LM Studio, llama.cpp's server) through the official `openai` client, as a `CompletionModel`.
 *
 * Tools in sampling map to native function calling: MCP `tools` become `tools` of type `function`
 * (`inputSchema` as `parameters`), `toolChoice.mode` becomes `tool_choice` (`auto`, `required`,
 * `none`: the same words); an assistant turn's `tool_use` blocks become its `tool_calls` (arguments
 * as JSON text), and a user turn's `tool_result` blocks become `role: "tool"` messages with their
 * `tool_call_id`, in order, before any text of that turn. The answer's `tool_calls` come back as
 * `tool_use` blocks with `stopReason: "toolUse"`.
 */
import type { OpenAI } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';
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
} from './turns.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIChatModelOptions {
  /** The model id sent to the endpoint, e.g. `gpt-5.4-mini` or `llama3.2`. */
  model: string;
  /** Omitted: no `Authorization` header at all (Ollama and most local servers need none). */
  apiKey?: string;
  /** Defaults to `https://api.openai.com/v1`. */
  baseURL?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
  /**
   * The token-limit field: `max_completion_tokens` (what api.openai.com wants; required by reasoning
   * models) or `max_tokens` (what every OpenAI-compatible server reads). Default: the former for
   * api.openai.com, the latter for any other base URL.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

// `model` and `usage` are read leniently: a bad one must not spoil an otherwise good answer.
const chatCompletion = z.looseObject({
  model: z.unknown(),
  choices: z.array(
    z.looseObject({
      finish_reason: z.string().nullish(),
      message: z.looseObject({
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z
          .array(
            z.looseObject({
              id: z.unknown().optional(),
              function: z.looseObject({ name: z.unknown().optional(), arguments: z.unknown().optional() }).optional(),
            }),
          )
          .nullish(),
      }),
    }),
  ),
  usage: z.unknown(),
});

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
  function_call: 'toolUse',
};

/**
 * The token-limit field a base URL gets: `max_completion_tokens` for api.openai.com (what reasoning
 * models require), `max_tokens` — what OpenAI-compatible servers read — for any other host.
 */
export function maxTokensFieldFor(baseURL: string): 'max_tokens' | 'max_completion_tokens' {
  let host: string;
  try {
    host = new URL(baseURL).hostname;
  } catch {
    return 'max_tokens';
  }
  return host === new URL(OPENAI_DEFAULT_BASE_URL).hostname ? 'max_completion_tokens' : 'max_tokens';
}

function texts(turn: Turn): string {
  return turn.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** One turn as Chat Completions messages (a user turn with tool results becomes several). */
function chatTurn(turn: Turn): ChatCompletionMessageParam[] {
  const plain = plainText(turn);
  if (plain !== undefined) return [{ role: turn.role, content: plain }];
  const text = texts(turn);
  if (turn.role === 'assistant') {
    const calls = turn.blocks.flatMap((block) =>
      block.type === 'tool_use'
        ? [
            {
              id: block.id,
              type: 'function' as const,
              function: { name: block.name, arguments: JSON.stringify(block.input) },
            },
          ]
        : [],
    );
    return [{ role: 'assistant', content: text === '' ? null : text, tool_calls: calls }];
  }
  // Chat Completions has no error flag on a tool message: a failed tool says so in its text.
  const results = turn.blocks.flatMap((block): ChatCompletionMessageParam[] =>
    block.type === 'tool_result'
      ? [{ role: 'tool', tool_call_id: block.toolUseId, content: block.isError ? `Error: ${block.text}` : block.text }]
      : [],
  );
  return text === '' ? results : [...results, { role: 'user', content: text }];
}

function chatTools(conversation: Conversation): { tools?: ChatCompletionTool[]; tool_choice?: ToolMode } {
  if (conversation.tools === undefined) return {};
  return {
    tools: conversation.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        parameters: tool.inputSchema,
      },
    })),
    ...(conversation.toolChoice !== undefined && { tool_choice: conversation.toolChoice }),
  };
}

export function createOpenAIChatModel(options: OpenAIChatModelOptions): CompletionModel {
  const name = `openai:${options.model}`;
  const baseURL = options.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  // The SDK is loaded on the first call, so a server on the built-in model never pays for it.
  let loaded: Promise<{ client: OpenAI; errors: SdkErrorClasses }> | undefined;
  const load = () =>
    (loaded ??= import('openai').then((sdk) => ({
      client: new sdk.OpenAI({
        // The client insists on a key; without one we send none at all rather than a made-up one.
        apiKey: options.apiKey ?? 'none',
        ...(options.apiKey === undefined && { defaultHeaders: { Authorization: null } }),
        baseURL,
        timeout: options.timeoutMs,
        maxRetries: 0,
        logLevel: 'off',
      }),
      errors: sdk,
    })));
  let errors: SdkErrorClasses | undefined;
  const maxTokensField = options.maxTokensField ?? maxTokensFieldFor(baseURL);
  const context = providerContext(name, 'OPENAI', options.timeoutMs);
  const invalid = badResponse(
    name,
    'check OPENAI_BASE_URL points at an OpenAI-compatible /v1 endpoint, or try another model',
  );

  /** The Chat Completions body for `params`, and the conversation it was made from. */
  function chatRequest(params: CreateMessageRequestParams) {
    const conversation = toConversation(params, name);
    const { system, turns } = conversation;
    const body = {
      model: options.model,
      messages: [
        ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
        ...turns.flatMap(chatTurn),
      ],
      ...chatTools(conversation),
      [maxTokensField]: params.maxTokens,
      ...(params.temperature !== undefined && { temperature: params.temperature }),
      ...(params.stopSequences !== undefined && params.stopSequences.length > 0 && { stop: params.stopSequences }),
    };
    return { conversation, body };
  }

  async function attempt(request: ModelCompletionRequest, signal: AbortSignal) {
    const { params } = request;
    const { conversation, body } = chatRequest(params);
    const sdk = await load();
    errors = sdk.errors;
    const raw: unknown = await sdk.client.chat.completions.create(
      body as unknown as ChatCompletionCreateParamsNonStreaming,
      // The SDK's own timeout stops at the headers; the signal's deadline covers the body too.
      { timeout: options.timeoutMs, maxRetries: 0, signal },
    );
    const parsed = chatCompletion.safeParse(raw);
    if (!parsed.success) throw invalid('the answer is not a Chat Completions response');
    const response = parsed.data;
    const choice = response.choices[0];
    const content = choice?.message.content ?? '';
    const rawCalls = choice?.message.tool_calls ?? [];
    // Billed even when the answer is then rejected; counts that make no sense are estimated instead.
    request.onUsage?.(
      answerUsage(
        { input: usageField(response.usage, 'prompt_tokens'), output: usageField(response.usage, 'completion_tokens') },
        params,
        rawCalls.length === 0 ? content : content + JSON.stringify(rawCalls),
      ),
    );
    if (choice === undefined) throw invalid('the answer has no choices');
    if (
      (choice.message.refusal != null && choice.message.refusal !== '') ||
      (choice.finish_reason === 'content_filter' && content === '' && rawCalls.length === 0)
    ) {
      throw refusedError(name);
    }
    const calls = toolUses(
      rawCalls.map((call) => ({ id: call.id, name: call.function?.name, arguments: call.function?.arguments })),
      conversation.tools !== undefined,
      invalid,
    );
    const model = reportedModel(response.model, options.model);
    return finishedAnswer({ text: content, calls }, model, choice.finish_reason, STOP_REASONS);
  }

  return retryingModel({
    name,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    logger: options.logger,
    attempt,
    body: (params) => chatRequest(params).body,
    classify: (error, timedOut) => classifySdkError(error, errors, context, timedOut),
  });
}
