/** What the main job takes: the tree, the call's arguments, the model plan and what to tell the user. */
import type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
import type { TraceSink } from '../host/trace.js';
import type { Logger } from '../logger.js';
import type { CompletionModel } from '../models/modelSource.js';
import type { ModelPlan } from '../models/sources.js';
import type { RepositoryOptions } from '../repo/index.js';

export interface LocalSummarizeOptions {
  root: string;
  args: { audience?: string; path?: string; maxFiles?: number; mode?: 'pick' | 'explore' };
  logger: Logger;
  /** The server's model plan; defaults to `builtin` (server-owned, one call). */
  models?: ModelPlan;
  /** The host's model, for steps the plan gives to `host`; defaults to the built-in heuristic. */
  model?: CompletionModel;
  /** Every message of the exchange (the run then goes through the protocol). */
  trace?: TraceSink;
  /** `summarize_repo` size limits (defaults in flows/summarizeRepo/prompts.ts). */
  budgets?: Partial<SummarizeBudgets>;
  /** Repository reader options, e.g. `onProgress` for a progress line. */
  repository?: RepositoryOptions;
  /** Go through the in-process client and server even when no step needs the host's model (default false). */
  overMcp?: boolean;
  /**
   * False when the caller shows no token counts: a run without the protocol then leaves them out of the result's
   * files and tokenizes only where a token budget needs it (the encoder's loading is most of a small run's time).
   * Default true; a run through the protocol always counts, as a server does.
   */
  fileTokens?: boolean;
}
