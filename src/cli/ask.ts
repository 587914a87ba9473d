/** `mcp-model-input ask DIR "question"`: the ask_repo tool on a local tree (default model: builtin). */
import { parseCommandArgs, parseInteger, resolveDirectory } from './args.js';
import { ModelInputError } from '../errors.js';
import { runToolCommand, TOOL_COMMAND_FLAG_OPTIONS } from './toolCommand.js';
import { ASK_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

export async function runAsk(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('ask', argv, {
    'max-files': { type: 'string' },
    mode: { type: 'string' },
    ...TOOL_COMMAND_FLAG_OPTIONS,
  });
  if (values.help) {
    writeLine(io.stdout, ASK_USAGE);
    return 0;
  }
  if (positionals.length !== 2) {
    writeLine(io.stderr, `mcp-model-input: ask takes DIR and a QUESTION, got ${positionals.length}\n\n${ASK_USAGE}`);
    return 2;
  }
  const root = await resolveDirectory('ask DIR', positionals[0]);
  const maxFiles = parseInteger('--max-files', values['max-files'], 1, 20);
  const mode = values.mode;
  if (mode !== undefined && mode !== 'pick' && mode !== 'explore') {
    throw new ModelInputError('usage', `--mode must be pick or explore, got '${mode}'`);
  }
  const args = {
    question: positionals[1],
    ...(maxFiles !== undefined && { maxFiles }),
    ...(mode !== undefined && { mode }),
  };
  return runToolCommand('ask_repo', root, args, values, io);
}
