/** The `summarize_repo` size limits as flags, shared by `serve` and `summarize`. */
import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import { MIN_PICK_PROMPT_BYTES } from '../flows/summarizeRepo/prompts.js';
import { parseInteger } from './args.js';

export const BUDGET_FLAG_OPTIONS = {
  'pick-prompt-bytes': { type: 'string' },
  'read-bytes': { type: 'string' },
  'result-tokens': { type: 'string' },
} as const;

export interface BudgetFlagValues {
  'pick-prompt-bytes'?: string | undefined;
  'read-bytes'?: string | undefined;
  'result-tokens'?: string | undefined;
}

/** Validated budgets; only the flags given are set (the rest keep the defaults). */
export function budgetsFromFlags(values: BudgetFlagValues): Partial<SummarizeBudgets> {
  const pickPromptBytes = parseInteger(
    '--pick-prompt-bytes',
    values['pick-prompt-bytes'],
    MIN_PICK_PROMPT_BYTES,
    1024 * 1024,
  );
  const totalBytes = parseInteger('--read-bytes', values['read-bytes'], 1024, 16 * 1024 * 1024);
  const resultTokens = parseInteger('--result-tokens', values['result-tokens'], 100, 1_000_000);
  return {
    ...(pickPromptBytes !== undefined && { pickPromptBytes }),
    ...(totalBytes !== undefined && { totalBytes, fileBytes: Math.min(totalBytes, 16 * 1024) }),
    ...(resultTokens !== undefined && { resultTokens }),
  };
}
