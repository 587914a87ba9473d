/**
 * What one tool call spends on server-owned models, and the bounds on it. The engine opens one
 * meter per `tools/call` (carried across MRTR rounds in the sealed state when some steps are the
 * host's) and sends every server-owned completion through it: the meter refuses a call that would
 * exceed the budget, ends calls when the request's model deadline passes, adds up the tokens the
 * provider reports (estimated when it reports nonsense), refuses answers over `MAX_ANSWER_BYTES`, and
 * writes one log line per call — model, tokens, latency, outcome; never the prompt, never credentials.
 * What the model reports about itself (name, counts) is cleaned before it is logged, added or returned.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { CompletionModel, ModelCompletionRequest, ModelDeadline, ModelUsage } from './modelSource.js';
import { deadlineExceeded, isModelProviderError, ModelProviderError } from './providerError.js';
import { estimateInputTokens } from './providers/turns.js';
import { addTokens, answerBytes, displayModelName, isPlainAnswer, MAX_ANSWER_BYTES, tokenCount } from './untrusted.js';

export interface ModelBudget {
  /** Server-owned model calls per tool call (a repair attempt counts; retries of one call do not). */
  maxCalls: number;
  /** Input plus output tokens per tool call. */
  maxTokens: number;
  /**
   * Wall-clock time all server-owned model calls of one `tools/call` request may take together,
   * retries and their waits included (default 180 s).
   */
  deadlineMs?: number;
}

export const DEFAULT_MODEL_BUDGET: Required<ModelBudget> = { maxCalls: 6, maxTokens: 200_000, deadlineMs: 180_000 };

/** `structuredContent.usage`: the tool call's server-owned model calls (host rounds are the client's). */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Model names as the models reported themselves (cleaned, at most 128 characters), in first-use order. */
  models: string[];
}

export function emptyUsage(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, models: [] };
}

export interface UsageMeter {
  complete(model: CompletionModel, request: ModelCompletionRequest): Promise<CreateMessageResult>;
  totals(): UsageTotals;
}

/** One server-owned model call as the meter saw it (metrics). */
export interface ModelCallRecord {
  /** The configured model (`openai:…`, `builtin`, …). */
  model: string;
  /** Input plus output tokens counted for the call (0 when it failed before any were reported). */
  tokens: number;
  latencyMs: number;
  /** `ok`, or the failure kind. */
  outcome: string;
}

export interface UsageMeterOptions {
  budget: ModelBudget;
  logger: Logger;
  /** Told about every server-owned model call after it ends. */
  onCall?: (call: ModelCallRecord) => void;
  /** Totals carried over from earlier rounds of the same tool call. */
  start?: UsageTotals;
  /** A monotonic clock in milliseconds, for latency and the deadline; injected in tests. */
  now?: () => number;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export function createUsageMeter(options: UsageMeterOptions): UsageMeter {
  const totals: UsageTotals = structuredClone(options.start ?? emptyUsage());
  const now = options.now ?? (() => performance.now());
  const { budget, logger } = options;
  const deadlineMs = budget.deadlineMs ?? DEFAULT_MODEL_BUDGET.deadlineMs;
  // Time spent inside model calls of this request so far; the deadline bounds their sum.
  let spentMs = 0;

  function refuse(model: CompletionModel, what: string, flag: string): never {
    throw new ModelProviderError('budget_exceeded', `${model.name}: ${what}`, {
      model: model.name,
      hint: `raise ${flag} on the server if this tool call really needs more`,
    });
  }

  return {
    totals: () => structuredClone(totals),
    async complete(model, request) {
      request.signal?.throwIfAborted();
      if (totals.calls >= budget.maxCalls) {
        refuse(model, `the budget of ${budget.maxCalls} model calls per tool call is spent`, '--max-model-calls');
      }
      const estimatedInput = estimateInputTokens(request.params);
      const needed = estimatedInput + request.params.maxTokens;
      if (totals.inputTokens + totals.outputTokens + needed > budget.maxTokens) {
        refuse(
          model,
          `this call (about ${needed} tokens) would exceed the budget of ${budget.maxTokens} tokens per tool call`,
          '--max-model-tokens',
        );
      }
      const leftAtStart = deadlineMs - spentMs;
      if (leftAtStart <= 0) throw deadlineExceeded(model.name, deadlineMs);
      totals.calls += 1;
      let tokens: { input: number; output: number; estimated: boolean } | undefined;
      const started = now();
      const deadline: ModelDeadline = { totalMs: deadlineMs, leftMs: () => leftAtStart - (now() - started) };
      const line = (modelName: string, outcome: string): string => {
        const spent =
          tokens === undefined ? 'tokens=n/a' : `tokens=${tokens.estimated ? '~' : ''}${tokens.input}+${tokens.output}`;
        return `model call ${request.key}: model=${displayModelName(modelName)} ${spent} latency=${Math.round(now() - started)}ms outcome=${outcome}`;
      };
      const onUsage = (usage: ModelUsage): void => {
        // Whatever a model reports is checked again here: nonsense is replaced by the estimate.
        const input = tokenCount(usage.inputTokens);
        const output = tokenCount(usage.outputTokens);
        const counted: ModelUsage = {
          inputTokens: input ?? estimatedInput,
          outputTokens: output ?? request.params.maxTokens,
          ...((usage.estimated === true || input === undefined || output === undefined) && { estimated: true }),
        };
        tokens = {
          input: addTokens(tokens?.input ?? 0, counted.inputTokens),
          output: addTokens(tokens?.output ?? 0, counted.outputTokens),
          estimated: (tokens?.estimated ?? false) || counted.estimated === true,
        };
        totals.inputTokens = addTokens(totals.inputTokens, counted.inputTokens);
        totals.outputTokens = addTokens(totals.outputTokens, counted.outputTokens);
        request.onUsage?.(counted);
      };

      const record = (outcome: string): void =>
        options.onCall?.({
          model: model.name,
          tokens: tokens === undefined ? 0 : addTokens(tokens.input, tokens.output),
          latencyMs: now() - started,
          outcome,
        });

      // The call's signal also ends when the deadline passes, for models that do not watch it themselves.
      const controller = new AbortController();
      const timeUp = deadlineExceeded(model.name, deadlineMs);
      const forward = () => controller.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', forward, { once: true });
      // (Node fires longer timers at once; a deadline that long is no deadline.)
      const timer = leftAtStart <= MAX_TIMER_MS ? setTimeout(() => controller.abort(timeUp), leftAtStart) : undefined;
      try {
        const answer = await model.complete({ ...request, signal: controller.signal, deadline, onUsage });
        if (answerBytes(answer) > MAX_ANSWER_BYTES) {
          throw new ModelProviderError(
            'bad_response',
            `${model.name}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`,
            { model: model.name, hint: 'ask for a shorter answer, or try another model' },
          );
        }
        const { tools, toolChoice } = request.params;
        if (!isPlainAnswer(answer) && tools === undefined && toolChoice === undefined) {
          throw new ModelProviderError('bad_response', `${model.name}: the answer calls tools, but none were offered`, {
            model: model.name,
            hint: 'try another model',
          });
        }
        const modelName = displayModelName(answer.model, model.name);
        if (!totals.models.includes(modelName)) totals.models.push(modelName);
        logger.info(line(modelName, 'ok'));
        record('ok');
        // To a request that offers tools the content may be several blocks, tool_use among them (SEP-1577);
        // the flows read every answer through `answerText` and their own tool_use parsing, which take both shapes.
        return { ...answer, model: modelName } as CreateMessageResult;
      } catch (thrown) {
        const error = controller.signal.reason === timeUp && request.signal?.aborted !== true ? timeUp : thrown;
        const outcome = isModelProviderError(error)
          ? `${error.failure}${error.status === undefined ? '' : ` (HTTP ${error.status})`}`
          : 'error';
        logger.info(line(isModelProviderError(error) ? error.model : model.name, outcome));
        record(isModelProviderError(error) ? error.failure : 'error');
        throw error;
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', forward);
        spentMs += now() - started;
      }
    },
  };
}
