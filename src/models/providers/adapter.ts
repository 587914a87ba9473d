/**
 * What every provider adapter shares once it has a provider-specific `attempt`: the retrying
 * `CompletionModel` wrapper (which uses tools), the refusal error, the model's tool calls read
 * back as `tool_use` blocks, and the finished result with the provider's stop reason mapped to MCP's.
 */
import type { CreateMessageResult, CreateMessageResultWithTools, ToolUseContent } from '@modelcontextprotocol/server';

import type { Logger } from '../../logger.js';
import { MAX_ANSWER_DEPTH, nestsDeeperThan } from '../../protocol/json.js';
import type { CompletionModel, ModelCompletionRequest } from '../modelSource.js';
import { ModelProviderError } from '../providerError.js';
import type { ClassifiedFailure, ProviderContext } from './failure.js';
import { callWithRetries, type RetryPolicy } from './retry.js';
import { answerResult } from './turns.js';

export interface RetryingModelOptions {
  name: string;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
  attempt(
    request: ModelCompletionRequest,
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  classify(error: unknown, timedOut: boolean): ClassifiedFailure;
}

export function retryingModel(options: RetryingModelOptions): CompletionModel {
  return {
    name: options.name,
    usesTools: true,
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

/**
 * The answer as a sampling result, the provider's stop reason mapped through `table`: one text
 * block, or (when the model called tools) its text and one `tool_use` block per call.
 */
export function finishedAnswer(
  answer: { text: string; calls: readonly ToolUseContent[] },
  model: string,
  stop: string | null | undefined,
  table: Readonly<Record<string, string>>,
): CreateMessageResult | CreateMessageResultWithTools {
  return answerResult(answer.text, answer.calls, model, stop == null ? undefined : (table[stop] ?? stop));
}

/** What a tool call of the model is, before it is checked. */
export interface RawToolCall {
  id?: unknown;
  name?: unknown;
  /** The arguments as an object (Messages API)… */
  input?: unknown;
  /** …or as JSON text (Chat Completions; empty text is no arguments). */
  arguments?: unknown;
}

function argumentsObject(call: RawToolCall): Record<string, unknown> | undefined {
  let value = call.input;
  if ('arguments' in call) {
    if (typeof call.arguments !== 'string') return undefined;
    try {
      value = call.arguments.trim() === '' ? {} : (JSON.parse(call.arguments) as unknown);
    } catch {
      return undefined;
    }
  }
  // Arguments nested deeper than any tool's input would be walked recursively later: a bad response instead.
  return typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !nestsDeeperThan(value, MAX_ANSWER_DEPTH)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The model's tool calls as `tool_use` blocks. A call to a request that offered no tools, without a
 * name, or whose arguments are not a JSON object is a `bad_response` (the model's own text is never
 * quoted); a call without an id gets one (`call_1`, … in the order of the answer).
 */
export function toolUses(
  calls: readonly RawToolCall[],
  offered: boolean,
  invalid: (what: string) => ModelProviderError,
): ToolUseContent[] {
  if (calls.length > 0 && !offered) throw invalid('the model called a tool, but the request offered none');
  const given = new Set(calls.map((call) => call.id).filter((id) => typeof id === 'string'));
  return calls.map((call, index): ToolUseContent => {
    if (typeof call.name !== 'string' || call.name === '') throw invalid(`tool call ${index + 1} names no tool`);
    const input = argumentsObject(call);
    if (input === undefined) throw invalid(`tool call ${index + 1} has arguments that are not a JSON object`);
    let id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index + 1}`;
    while (id !== call.id && given.has(id)) id = `${id}_`;
    return { type: 'tool_use', id, name: call.name, input };
  });
}

/** What error classification knows about a provider: its variables are `<PREFIX>_API_KEY` and `<PREFIX>_BASE_URL`. */
export function providerContext(name: string, envPrefix: 'OPENAI' | 'ANTHROPIC', timeoutMs: number): ProviderContext {
  return { model: name, keyEnv: `${envPrefix}_API_KEY`, baseUrlEnv: `${envPrefix}_BASE_URL`, timeoutMs };
}

/** Builds the error for an answer the adapter cannot use, with the provider's hint. */
export function badResponse(name: string, hint: string): (what: string) => ModelProviderError {
  return (what) => new ModelProviderError('bad_response', `${name}: ${what}`, { model: name, hint });
}
