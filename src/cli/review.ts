/** `mcp-model-input review DIR [--base REF --head REF]`: the review_changes tool on a local repository. */
import { parseCommandArgs, resolveDirectory } from './args.js';
import { runToolCommand, TOOL_COMMAND_FLAG_OPTIONS } from './toolCommand.js';
import { REVIEW_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

export async function runReview(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('review', argv, {
    base: { type: 'string' },
    head: { type: 'string' },
    path: { type: 'string', multiple: true },
    focus: { type: 'string' },
    ...TOOL_COMMAND_FLAG_OPTIONS,
  });
  if (values.help) {
    writeLine(io.stdout, REVIEW_USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    writeLine(io.stderr, `mcp-model-input: review takes one DIR, got ${positionals.length}\n\n${REVIEW_USAGE}`);
    return 2;
  }
  const root = await resolveDirectory('review DIR', positionals[0]);
  const args = {
    ...(values.base !== undefined && { base: values.base }),
    ...(values.head !== undefined && { head: values.head }),
    ...(values.path !== undefined && { paths: values.path }),
    ...(values.focus !== undefined && { focus: values.focus }),
  };
  return runToolCommand('review_changes', root, args, values, io);
}
