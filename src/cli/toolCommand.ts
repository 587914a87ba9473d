/**
 * What `ask` and `review` share with `summarize`: the model flags, `--json` (the structured result), `--quiet`,
 * the exit codes (0 done, 1 the tool failed, 2 usage — arguments the tool refuses included).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { runLocalModelTool, type LocalModelToolOptions } from '../app/localModelTool.js';
import { ModelInputError } from '../errors.js';
import { createStderrLogger } from '../logger.js';
import { MODEL_FLAG_OPTIONS, modelPlanFromFlags, type ModelFlagValues } from './modelFlags.js';
import { writeLine, type CliIo } from './io.js';

/** The flags `ask` and `review` share, for `parseCommandArgs` (their usage: LOCAL_TOOL_OPTIONS_USAGE). */
export const TOOL_COMMAND_FLAG_OPTIONS = {
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'allow-secret-file': { type: 'string', multiple: true },
  ...MODEL_FLAG_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

export interface ToolCommandValues extends ModelFlagValues {
  json?: boolean | undefined;
  quiet?: boolean | undefined;
  'allow-secret-file'?: string[] | undefined;
}

export async function runToolCommand(
  tool: LocalModelToolOptions['tool'],
  root: string,
  args: Record<string, unknown>,
  values: ToolCommandValues,
  io: CliIo,
): Promise<number> {
  const logger = createStderrLogger({ quiet: values.quiet === true, stream: io.stderr });
  const models = modelPlanFromFlags(values, logger, io.env);
  let result;
  try {
    result = await runLocalModelTool({
      tool,
      root,
      args,
      logger,
      models,
      ...(values['allow-secret-file'] !== undefined && {
        repository: { allowSecretFiles: values['allow-secret-file'] },
      }),
    });
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) {
      throw new ModelInputError('usage', error.message.replace(/^MCP error -?\d+: /, ''));
    }
    throw error;
  }
  const text = result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  if (result.isError === true) {
    writeLine(io.stderr, `mcp-model-input: ${tool} failed: ${text}`);
    return 1;
  }
  writeLine(io.stdout, values.json === true ? JSON.stringify(result.structuredContent ?? {}, null, 2) : text);
  return 0;
}
