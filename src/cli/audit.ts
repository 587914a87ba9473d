/** `mcp-model-input audit`: probes a live MCP server and reports every rule; non-zero on any failure. */
import { defaultBuiltinModel } from '../app/builtinModels.js';
import { runAudit, type AuditOptions } from '../audit/runAudit.js';
import { renderAuditText } from '../audit/renderReport.js';
import type { ScriptedAnswers } from '../audit/scriptedHost.js';
import { ToolArgumentsRejectedError } from '../audit/toolArgumentsRejectedError.js';
import { ModelInputError } from '../errors.js';
import { prettyJson } from '../plan/prettyJson.js';
import { readInputFile } from '../plan/readInput.js';

const MAX_ANSWERS_BYTES = 1024 * 1024;
import { parseCommandArgs, parseInteger } from './args.js';
import { AUDIT_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

function parseObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ModelInputError('usage', `${flag} must be a JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelInputError('usage', `${flag} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

async function loadAnswers(path: string): Promise<ScriptedAnswers> {
  const input = await readInputFile(path, MAX_ANSWERS_BYTES);
  if (!input.ok) throw new ModelInputError('usage', `--answers: ${path} ${input.problem}`, { cause: input.cause });
  const answers = parseObject('--answers FILE', input.text);
  for (const [key, value] of Object.entries(answers)) {
    const ok = typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!ok) throw new ModelInputError('usage', `--answers: '${key}' must be a string or an array of strings`);
  }
  return answers as ScriptedAnswers;
}

function parseHeaders(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const value of values) {
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(value);
    if (match === null)
      throw new ModelInputError('usage', `--header expects 'Name: value', got '${value.split(':')[0]}…'`);
    headers[(match[1] as string).toLowerCase()] = match[2] as string;
  }
  return headers;
}

export async function runAuditCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('audit', argv, {
    stdio: { type: 'string' },
    url: { type: 'string' },
    tool: { type: 'string' },
    args: { type: 'string' },
    answers: { type: 'string' },
    header: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    'no-interop': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    writeLine(io.stdout, AUDIT_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new ModelInputError('usage', `audit: unexpected argument '${positionals[0]}'`);
  if ((values.stdio === undefined) === (values.url === undefined)) {
    throw new ModelInputError('usage', 'audit: pass exactly one of --stdio "COMMAND" or --url URL (see --help)');
  }
  if (values.tool === undefined && (values.args !== undefined || values.answers !== undefined)) {
    throw new ModelInputError('usage', 'audit: --args and --answers need --tool NAME');
  }
  if (values.stdio !== undefined && values.header !== undefined) {
    throw new ModelInputError('usage', 'audit: --header applies to --url only');
  }
  if (values.url !== undefined && !/^https?:\/\//.test(values.url)) {
    throw new ModelInputError('usage', `audit: --url must be an http(s) URL, got '${values.url}'`);
  }
  const timeoutMs = parseInteger('--timeout', values.timeout, 100, 600_000);
  const headers = parseHeaders(values.header);
  const options: AuditOptions = {
    target:
      values.stdio !== undefined
        ? { transport: 'stdio', command: values.stdio }
        : { transport: 'http', url: values.url as string },
    ...(values.tool !== undefined && {
      tool: { name: values.tool, arguments: values.args === undefined ? {} : parseObject('--args', values.args) },
    }),
    ...(values.answers !== undefined && { answers: await loadAnswers(values.answers) }),
    model: defaultBuiltinModel(),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(headers !== undefined && { headers }),
    ...(values['no-interop'] === true && { interop: false }),
  };
  let report;
  try {
    report = await runAudit(options);
  } catch (error) {
    if (!(error instanceof ToolArgumentsRejectedError)) throw error;
    const given = values.args === undefined ? 'no --args (so {})' : '--args';
    throw new ModelInputError(
      'usage',
      `audit: ${given}: ${error.message.replace(/\s+/g, ' ')}; pass --args the tool accepts`,
      { cause: error },
    );
  }
  io.stdout.write(values.json === true ? prettyJson(report) : renderAuditText(report));
  return report.summary.fail > 0 ? 1 : 0;
}
