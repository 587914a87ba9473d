/**
 * `summarize_repo` as a registered tool: descriptor and argument schema here; the flow behind it (run.ts) is
 * imported at the first call, so a server answers `server/discover` and `tools/list` without loading it.
 */
import { SAMPLING_ONLY_HINT } from '../../models/sources.js';
import { printable } from '../../protocol/sanitize.js';
import { defineTool, type AnyToolDefinition } from '../tool.js';
import type { SamplingMissingRevision } from '../engine.js';
import type { runSummarizeRepo, SummarizeRepoToolOptions } from './run.js';
import { summarizeRepoInput, summarizeRepoOutput, TOOL_NAME } from './schema.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../../protocol/revisions.js';

export type { SummarizeRepoToolOptions };

/**
 * The flow's module, imported at the first call and kept: an `import()` per call resolves the module again (a round
 * trip to the loader's hooks thread, when hooks are registered as under `tsx`).
 */
let runModule: Promise<{ runSummarizeRepo: typeof runSummarizeRepo }> | undefined;

/** Clients remembered for the once-per-client -32021 log line; past this many, the memory starts over. */
const MAX_NOTED_CLIENTS = 1000;

/** How each revision refuses a client without sampling, for the log line. */
const REFUSED_WITH: Readonly<Record<SamplingMissingRevision, string>> = {
  [MODERN_REVISION]: '-32021',
  [LEGACY_REVISION]: 'a tool error on 2025-11-25: no sampling declared at initialize',
};

/** Logs, once per client (principal and self-reported name), that a client without sampling was refused. */
function samplingMissingNotice(
  options: SummarizeRepoToolOptions,
): (client: string, principal: string, revision: SamplingMissingRevision) => void {
  const noted = new Set<string>();
  return (client, principal, revision) => {
    const key = JSON.stringify([principal, client]);
    if (noted.has(key)) return;
    if (noted.size >= MAX_NOTED_CLIENTS) noted.clear();
    noted.add(key);
    options.logger.warn(
      `${TOOL_NAME}: client '${printable(client).slice(0, 64)}' (principal ${principal}) does not declare sampling ` +
        `and was refused (${REFUSED_WITH[revision]}) under --model ${options.models.spec}; ${SAMPLING_ONLY_HINT}`,
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
      'the server reads them safely within byte budgets, and the model summarizes them for the given audience. ' +
      'With mode "explore" the model first walks the repository with read-only tools (tools in sampling; the ' +
      'client must declare sampling.tools to lend its model), and the result lists the calls it made.',
    inputSchema: summarizeRepoInput,
    outputSchema: summarizeRepoOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: 'optional',
    async run(args, ctx) {
      // The flow, the engine and the repository reader load with the first call, not with the server.
      const { runSummarizeRepo } = await (runModule ??= import('./run.js').catch((error: unknown) => {
        runModule = undefined; // a failed load is tried again by the next call
        throw error;
      }));
      return runSummarizeRepo(options, args, ctx, (client, revision) =>
        onSamplingMissing(client, ctx.principal, revision),
      );
    },
  });
}
