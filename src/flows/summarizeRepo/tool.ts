/**
 * `summarize_repo` as a registered tool: descriptor and argument schema here; the flow behind it (run.ts) is
 * imported at the first call, so a server answers `server/discover` and `tools/list` without loading it.
 */
import { preloadTokenizer } from '../../repo/tokens.js';
import { defineTool, type AnyToolDefinition } from '../tool.js';
import type { SummarizeRepoToolOptions } from './run.js';
import { summarizeRepoInput, summarizeRepoOutput, TOOL_NAME } from './schema.js';

export type { SummarizeRepoToolOptions };

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
      // The flow, the engine and the repository reader load with the first call, not with the server.
      const { runSummarizeRepo } = await import('./run.js');
      return runSummarizeRepo(options, args, ctx);
    },
  });
}
