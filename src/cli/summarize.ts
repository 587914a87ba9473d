/** `mcp-model-input summarize [DIR]`: the main job. */
import { runLocalSummarize } from '../host/localSummarize.js';
import { createStderrLogger } from '../logger.js';
import { parseCommandArgs, parseInteger, resolveDirectory } from './args.js';
import { SUMMARIZE_USAGE } from './usage.js';

export async function runSummarize(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('summarize', argv, {
    path: { type: 'string' },
    audience: { type: 'string' },
    'max-files': { type: 'string' },
    json: { type: 'boolean' },
    trace: { type: 'boolean' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(SUMMARIZE_USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    console.error(`mcp-model-input: summarize takes one DIR, got ${positionals.length}\n\n${SUMMARIZE_USAGE}`);
    return 2;
  }
  const root = await resolveDirectory('summarize DIR', positionals[0]);
  const maxFiles = parseInteger('--max-files', values['max-files'], 1, 8);
  const logger = createStderrLogger({ quiet: values.quiet === true });

  const result = await runLocalSummarize({
    root,
    logger,
    args: {
      ...(values.audience !== undefined && { audience: values.audience }),
      ...(values.path !== undefined && { path: values.path }),
      ...(maxFiles !== undefined && { maxFiles }),
    },
    ...(values.trace === true && { trace: (line: string) => process.stderr.write(`trace ${line}\n`) }),
  });

  const text = result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  if (result.isError === true) {
    console.error(`mcp-model-input: summarize_repo failed: ${text}`);
    return 1;
  }
  if (values.json === true) {
    console.log(JSON.stringify(result.structuredContent ?? {}, null, 2));
  } else {
    console.log(text);
  }
  return 0;
}
