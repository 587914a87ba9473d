/**
 * `summarize_repo` as clients see it — name, title, description, argument and result schemas, annotations — and the
 * once-per-client log line for a client refused for want of sampling. What runs a call is the kit's (the tool is a
 * model tool: src/app/summarizeRepoTool.ts), loaded at the first call, so a server answers `server/discover` and
 * `tools/list` without it.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';

import type { Logger } from '../../logger.js';
import { SAMPLING_ONLY_HINT } from '../../models/sources.js';
import { printable } from '../../protocol/sanitize.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../../protocol/revisions.js';
import type { SamplingMissingRevision } from '../engine.js';
import { summarizeRepoInput, summarizeRepoOutput, TOOL_NAME } from './schema.js';

export const SUMMARIZE_REPO_DESCRIPTOR = {
  name: TOOL_NAME,
  title: 'Summarize repository',
  description:
    'Summarizes the served repository (or a sub-directory): a model picks the most representative files, ' +
    'the server reads them safely within byte budgets, and the model summarizes them for the given audience. ' +
    'With mode "explore" the model first walks the repository with read-only tools (tools in sampling; the ' +
    'client must declare sampling.tools to lend its model), and the result lists the calls it made.',
  input: summarizeRepoInput,
  output: summarizeRepoOutput,
  annotations: { readOnlyHint: true, openWorldHint: false } satisfies ToolAnnotations,
} as const;

/** Clients remembered for the once-per-client -32021 log line; past this many, the memory starts over. */
const MAX_NOTED_CLIENTS = 1000;

/** How each revision refuses a client without sampling, for the log line. */
const REFUSED_WITH: Readonly<Record<SamplingMissingRevision, string>> = {
  [MODERN_REVISION]: '-32021',
  [LEGACY_REVISION]: 'a tool error on 2025-11-25: no sampling declared at initialize',
};

/** Logs, once per client (principal and self-reported name), that a client without sampling was refused. */
export function samplingMissingNotice(
  logger: Logger,
  modelSpec: string,
): (client: string, principal: string, revision: SamplingMissingRevision) => void {
  const noted = new Set<string>();
  return (client, principal, revision) => {
    const key = JSON.stringify([principal, client]);
    if (noted.has(key)) return;
    if (noted.size >= MAX_NOTED_CLIENTS) noted.clear();
    noted.add(key);
    logger.warn(
      `${TOOL_NAME}: client '${printable(client).slice(0, 64)}' (principal ${principal}) does not declare sampling ` +
        `and was refused (${REFUSED_WITH[revision]}) under --model ${modelSpec}; ${SAMPLING_ONLY_HINT}`,
    );
  };
}
