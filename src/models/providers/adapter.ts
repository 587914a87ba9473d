/**
 * What every provider adapter shares once it has a provider-specific `attempt`: the retrying
 * `CompletionModel` wrapper, the refusal error, and the finished text result with the provider's
 * stop reason mapped to MCP's.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/server';

import type { Logger } from '../../logger.js';
import type { CompletionModel, ModelCompletionRequest } from '../modelSource.js';
import { ModelProviderError } from '../providerError.js';
import type { ClassifiedFailure, ProviderContext } from './failure.js';
import { callWithRetries, type RetryPolicy } from './retry.js';
import { textResult } from './turns.js';

export interface RetryingModelOptions {
  name: string;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
  attempt(request: ModelCompletionRequest, signal: AbortSignal): Promise<CreateMessageResult>;
  classify(error: unknown, timedOut: boolean): ClassifiedFailure;
}

export function retryingModel(options: RetryingModelOptions): CompletionModel {
  return {
    name: options.name,
    complete: (request) =>
      callWithRetries({
        attempt: (_number, signal) => options.attempt(request, signal),
        classify: options.classify,
        timeoutMs: options.timeoutMs,
        policy: options.retry,
        logger: options.logger,
        model: options.name,
        ...(request.signal !== undefined && { signal: request.signal }),
        ...(request.deadline !== undefined && { deadline: request.deadline }),
      }),
  };
}

export function refusedError(name: string): ModelProviderError {
  return new ModelProviderError('refused', `${name}: the model declined to answer`, {
    model: name,
    hint: 'try another model',
  });
}

/** The answer as a sampling result, the provider's stop reason mapped through `table`. */
export function finishedText(
  text: string,
  model: string,
  stop: string | null | undefined,
  table: Readonly<Record<string, string>>,
): CreateMessageResult {
  return textResult(text, model, stop == null ? undefined : (table[stop] ?? stop));
}

/** What error classification knows about a provider: its variables are `<PREFIX>_API_KEY` and `<PREFIX>_BASE_URL`. */
export function providerContext(name: string, envPrefix: 'OPENAI' | 'ANTHROPIC', timeoutMs: number): ProviderContext {
  return { model: name, keyEnv: `${envPrefix}_API_KEY`, baseUrlEnv: `${envPrefix}_BASE_URL`, timeoutMs };
}

/** Builds the error for an answer the adapter cannot use, with the provider's hint. */
export function badResponse(name: string, hint: string): (what: string) => ModelProviderError {
  return (what) => new ModelProviderError('bad_response', `${name}: ${what}`, { model: name, hint });
}
