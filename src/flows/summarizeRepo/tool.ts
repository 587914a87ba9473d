/** `summarize_repo` as a registered tool: descriptor, argument schema, and the flow behind it. */
import { ModelInputError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ModelPlan } from '../../models/sources.js';
import {
  openRepository,
  preloadTokenizer,
  sharedSurveyCache,
  type RepositoryOptions,
  type SurveyCache,
} from '../../repo/index.js';
import { defineTool, type AnyToolDefinition } from '../tool.js';
import type { StateCodec } from '../../state/index.js';
import { runFlow, type SealedFlow } from '../engine.js';
import { createSummarizeRepoFlow } from './flow.js';
import type { SummarizeBudgets } from './prompts.js';
import { summarizeRepoInput, summarizeRepoOutput, TOOL_NAME } from './schema.js';

export interface SummarizeRepoToolOptions {
  root: string;
  codec: StateCodec<SealedFlow<unknown>>;
  models: ModelPlan;
  logger: Logger;
  maxRounds?: number;
  repository?: RepositoryOptions;
  /** Pick prompt bytes, summary read budgets, final text tokens (defaults in prompts.ts). */
  budgets?: Partial<SummarizeBudgets>;
  /**
   * Surveys kept between calls while nothing in the tree changes (a repeated first round skips the listing).
   * Default: the process's shared cache; `false` surveys afresh every time.
   */
  surveyCache?: SurveyCache | false;
}

export function createSummarizeRepoTool(options: SummarizeRepoToolOptions): AnyToolDefinition {
  // Every call counts tokens: the encoder starts loading now, on its own thread, not in the first call.
  preloadTokenizer();
  return defineTool({
    name: TOOL_NAME,
    title: 'Summarize repository',
    description:
      'Summarizes the served repository (or a sub-directory): a model picks the most representative files, ' +
      'the server reads them safely within byte budgets, and the model summarizes them for the given audience.',
    inputSchema: summarizeRepoInput,
    outputSchema: summarizeRepoOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(args, ctx) {
      const cache = options.surveyCache === false ? undefined : (options.surveyCache ?? sharedSurveyCache());
      const repository = { ...(cache !== undefined && { cache }), ...options.repository };
      const flow = createSummarizeRepoFlow(() => openRepository(options.root, repository), options.budgets);
      try {
        return await runFlow(flow, args, ctx, {
          codec: options.codec,
          models: options.models,
          logger: options.logger,
          ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
        });
      } catch (error) {
        if (error instanceof ModelInputError && error.code === 'path_outside_root') {
          return {
            content: [{ type: 'text', text: `${error.message}. Pass 'path' as a sub-directory of the served root.` }],
            isError: true,
          };
        }
        if (error instanceof ModelInputError && (error.code === 'root_invalid' || error.code === 'repo_unreadable')) {
          // The message names a host path: it goes to the operator's log, not to the client.
          options.logger.warn(`${TOOL_NAME}: ${error.message}`);
          return {
            content: [
              { type: 'text', text: 'The served repository is not readable right now. Ask the server operator.' },
            ],
            isError: true,
          };
        }
        throw error;
      }
    },
  });
}
