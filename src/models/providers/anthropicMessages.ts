/**
 * `anthropic:MODEL`: the native Messages API through the official `@anthropic-ai/sdk` client, as a
 * `CompletionModel`.
 */
import type { Anthropic } from '@anthropic-ai/sdk';
import { z } from 'zod';

import type { Logger } from '../../logger.js';
import type { CompletionModel, ModelCompletionRequest } from '../modelSource.js';
import { classifySdkError, type SdkErrorClasses } from './failure.js';
import { badResponse, finishedText, providerContext, refusedError, retryingModel } from './adapter.js';
import type { RetryPolicy } from './retry.js';
import { answerUsage, reportedModel, toTextConversation, usageField } from './turns.js';

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
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
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

  async function attempt(request: ModelCompletionRequest, signal: AbortSignal) {
    const { system, turns } = toTextConversation(request.params, name);
    const { params } = request;
    const sdk = await load();
    errors = sdk.errors;
    const raw: unknown = await sdk.client.messages.create(
      {
        model: options.model,
        max_tokens: params.maxTokens,
        messages: turns.map((turn) => ({ role: turn.role, content: turn.text })),
        ...(system !== undefined && { system }),
        ...(params.temperature !== undefined && { temperature: params.temperature }),
        ...(params.stopSequences !== undefined &&
          params.stopSequences.length > 0 && { stop_sequences: params.stopSequences }),
      },
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
    // Billed even when the answer is then rejected; counts that make no sense are estimated instead.
    request.onUsage?.(
      answerUsage(
        { input: usageField(answer.usage, 'input_tokens'), output: usageField(answer.usage, 'output_tokens') },
        params,
        text,
      ),
    );
    if (answer.stop_reason === 'refusal') {
      throw refusedError(name);
    }
    return finishedText(text, reportedModel(answer.model, options.model), answer.stop_reason, STOP_REASONS);
  }

  return retryingModel({
    name,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    logger: options.logger,
    attempt,
    classify: (error, timedOut) => classifySdkError(error, errors, context, timedOut),
  });
}
