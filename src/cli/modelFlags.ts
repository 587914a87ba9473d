/** The model flags `serve` and `summarize` share, and the `ModelPlan` they make. */
import type { Logger } from '../logger.js';
import { DEFAULT_MODEL_SPEC, parseModelSpec, type ModelPlan } from '../models/sources.js';
import { parseInteger } from './args.js';

export const MODEL_FLAG_OPTIONS = {
  model: { type: 'string' },
  'model-timeout': { type: 'string' },
  'model-retries': { type: 'string' },
  'max-model-calls': { type: 'string' },
  'max-model-tokens': { type: 'string' },
  'model-deadline': { type: 'string' },
} as const;

export interface ModelFlagValues {
  model?: string | undefined;
  'model-timeout'?: string | undefined;
  'model-retries'?: string | undefined;
  'max-model-calls'?: string | undefined;
  'max-model-tokens'?: string | undefined;
  'model-deadline'?: string | undefined;
}

/** Validates the flags and builds the plan; every configuration error is thrown here, at start-up. */
export function modelPlanFromFlags(
  values: ModelFlagValues,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
  defaultSpec: string = DEFAULT_MODEL_SPEC,
): ModelPlan {
  const timeoutSeconds = parseInteger('--model-timeout', values['model-timeout'], 1, 3600);
  const maxRetries = parseInteger('--model-retries', values['model-retries'], 0, 10);
  const maxCalls = parseInteger('--max-model-calls', values['max-model-calls'], 1, 100);
  const maxTokens = parseInteger('--max-model-tokens', values['max-model-tokens'], 1000, 100_000_000);
  const deadlineSeconds = parseInteger('--model-deadline', values['model-deadline'], 1, 3600);
  return parseModelSpec(values.model ?? defaultSpec, {
    env,
    logger,
    ...(timeoutSeconds !== undefined && { timeoutMs: timeoutSeconds * 1000 }),
    ...(maxRetries !== undefined && { retry: { maxRetries } }),
    budget: {
      ...(maxCalls !== undefined && { maxCalls }),
      ...(maxTokens !== undefined && { maxTokens }),
      ...(deadlineSeconds !== undefined && { deadlineMs: deadlineSeconds * 1000 }),
    },
  });
}
