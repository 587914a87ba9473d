/**
 * What one tool call spends on server-owned models, and the bounds on it. The engine opens one
 * meter per `tools/call` (carried across MRTR rounds in the sealed state when some steps are the
 * host's) and sends every server-owned completion through it: the meter refuses a call that would
 * exceed the budget, adds up the tokens the provider reports, and writes one log line per call —
 * model, tokens, latency, outcome; never the prompt, never credentials.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { CompletionModel, ModelCompletionRequest } from './modelSource.js';
import { isModelProviderError, ModelProviderError } from './providerError.js';
import { estimateInputTokens } from './providers/turns.js';

export interface ModelBudget {
  /** Server-owned model calls per tool call (a repair attempt counts; retries of one call do not). */
  maxCalls: number;
  /** Input plus output tokens per tool call. */
  maxTokens: number;
}

export const DEFAULT_MODEL_BUDGET: ModelBudget = { maxCalls: 6, maxTokens: 200_000 };

/** `structuredContent.usage`: the tool call's server-owned model calls (host rounds are the client's). */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Model names as the models reported themselves, in first-use order. */
  models: string[];
}

export function emptyUsage(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, models: [] };
}

export interface UsageMeter {
  complete(model: CompletionModel, request: ModelCompletionRequest): Promise<CreateMessageResult>;
  totals(): UsageTotals;
}

export interface UsageMeterOptions {
  budget: ModelBudget;
  logger: Logger;
  /** Totals carried over from earlier rounds of the same tool call. */
  start?: UsageTotals;
  now?: () => number;
}

export function createUsageMeter(options: UsageMeterOptions): UsageMeter {
  const totals: UsageTotals = structuredClone(options.start ?? emptyUsage());
  const now = options.now ?? (() => performance.now());
  const { budget, logger } = options;

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
      const needed = estimateInputTokens(request.params) + request.params.maxTokens;
      if (totals.inputTokens + totals.outputTokens + needed > budget.maxTokens) {
        refuse(
          model,
          `this call (about ${needed} tokens) would exceed the budget of ${budget.maxTokens} tokens per tool call`,
          '--max-model-tokens',
        );
      }
      totals.calls += 1;
      let tokens: { input: number; output: number } | undefined;
      const started = now();
      const line = (modelName: string, outcome: string): string => {
        const spent = tokens === undefined ? 'tokens=n/a' : `tokens=${tokens.input}+${tokens.output}`;
        return `model call ${request.key}: model=${modelName} ${spent} latency=${Math.round(now() - started)}ms outcome=${outcome}`;
      };
      try {
        const answer = await model.complete({
          ...request,
          onUsage: (usage) => {
            tokens = {
              input: (tokens?.input ?? 0) + usage.inputTokens,
              output: (tokens?.output ?? 0) + usage.outputTokens,
            };
            totals.inputTokens += usage.inputTokens;
            totals.outputTokens += usage.outputTokens;
            request.onUsage?.(usage);
          },
        });
        if (!totals.models.includes(answer.model)) totals.models.push(answer.model);
        logger.info(line(answer.model, 'ok'));
        return answer;
      } catch (error) {
        const outcome = isModelProviderError(error)
          ? `${error.failure}${error.status === undefined ? '' : ` (HTTP ${error.status})`}`
          : 'error';
        logger.info(line(isModelProviderError(error) ? error.model : model.name, outcome));
        throw error;
      }
    },
  };
}
