/**
 * `summarize_repo` as a server registers it: the descriptor (flows/summarizeRepo/tool.ts) and a `run` that loads
 * the tool's kit run (summarizeRepoRun.ts: the flow, the kit, the reader) at the first call, so a server answers
 * `server/discover` and `tools/list` without it. Served on the server's kit when it has one (modelInputServer.ts),
 * on a kit of its own otherwise.
 */
import { SUMMARIZE_REPO_DESCRIPTOR } from '../flows/summarizeRepo/tool.js';
import { defineTool, type AnyToolDefinition } from '../flows/tool.js';
import { loadOnce } from '../loadOnce.js';
import type { runSummarizeRepo, SummarizeRepoOptions } from './summarizeRepoRun.js';

export type { SummarizeRepoOptions };

/**
 * The tool's run, imported at the first call and kept: an `import()` per call resolves the module again (a round
 * trip to the loader's hooks thread, when hooks are registered as under `tsx`).
 */
const loadRun = loadOnce((): Promise<{ runSummarizeRepo: typeof runSummarizeRepo }> => import('./summarizeRepoRun.js'));

export function createSummarizeRepoTool(options: SummarizeRepoOptions): AnyToolDefinition {
  const { input, output, ...descriptor } = SUMMARIZE_REPO_DESCRIPTOR;
  return defineTool({
    ...descriptor,
    inputSchema: input,
    outputSchema: output,
    task: 'optional',
    async run(args, ctx) {
      const { runSummarizeRepo } = await loadRun();
      return runSummarizeRepo(options, args, ctx);
    },
  });
}
