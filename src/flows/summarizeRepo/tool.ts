/** `summarize_repo` as a registered tool: descriptor, argument schema, and the flow behind it. */
import { ModelInputError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { SAMPLING_ONLY_HINT, type ModelPlan } from '../../models/sources.js';
import { printable } from '../../protocol/sanitize.js';
import { openRepository, type RepositoryOptions } from '../../repo/index.js';
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
}

/** Clients remembered for the once-per-client -32021 log line; past this many, the memory starts over. */
const MAX_NOTED_CLIENTS = 1000;

/** Logs, once per client (principal and self-reported name), that a client without sampling was refused. */
function samplingMissingNotice(options: SummarizeRepoToolOptions): (client: string, principal: string) => void {
  const noted = new Set<string>();
  return (client, principal) => {
    const key = JSON.stringify([principal, client]);
    if (noted.has(key)) return;
    if (noted.size >= MAX_NOTED_CLIENTS) noted.clear();
    noted.add(key);
    options.logger.warn(
      `${TOOL_NAME}: client '${printable(client).slice(0, 64)}' (principal ${principal}) does not declare sampling ` +
        `and was refused (-32021) under --model ${options.models.spec}; ${SAMPLING_ONLY_HINT}`,
    );
  };
}

export function createSummarizeRepoTool(options: SummarizeRepoToolOptions): AnyToolDefinition {
  const onSamplingMissing = samplingMissingNotice(options);
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
      // The call's signal (client cancellation or disconnect) stops the listing, git, the inspection and the reads.
      const repository = { ...options.repository, signal: ctx.signal };
      const flow = createSummarizeRepoFlow(() => openRepository(options.root, repository), options.budgets);
      try {
        return await runFlow(flow, args, ctx, {
          codec: options.codec,
          models: options.models,
          logger: options.logger,
          onSamplingMissing: (client) => onSamplingMissing(client, ctx.principal),
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
          options.logger.warn(`${TOOL_NAME}: ${error.message}`, 'repo_unreadable');
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
