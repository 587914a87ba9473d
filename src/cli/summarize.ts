/**
 * `mcp-model-input summarize [DIR]`: the main job. `--model` takes the same specs as `serve`
 * (default `builtin`: one server-owned call); `--model host` runs the MRTR rounds with the
 * built-in model as the host's model.
 */
import { needsProtocol, runLocalSummarize } from '../app/localSummarize.js';
import { ModelInputError } from '../errors.js';
import { createStderrLogger } from '../logger.js';
import { observeModelCalls } from '../models/observedPlan.js';
import { escapeControls, terminalSafe, terminalSafeJson } from '../protocol/sanitize.js';
import { parseCommandArgs, parseInteger, resolveDirectory } from './args.js';
import { BUDGET_FLAG_OPTIONS, budgetsFromFlags } from './budgetFlags.js';
import { MODEL_FLAG_OPTIONS, modelPlanFromFlags } from './modelFlags.js';
import { createProgressLine, modelCallReporter } from './progress.js';
import { SUMMARIZE_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

/** A run still going after this long is not a small repository's: the encoder starts loading then. */
const ENCODER_LATE_START_MS = 250;

/** Explore mode: one line per tool call the model made (tool, target, bytes, error), terminal-safe. */
function explorationLines(structured: unknown): string[] {
  const exploration = (structured as Record<string, unknown> | undefined)?.['exploration'] as
    { calls?: Array<{ tool: string; target: string; bytes: number; error?: string }> } | undefined;
  return (exploration?.calls ?? []).map(
    (call) =>
      `- ${terminalSafe(call.tool, 40)} ${terminalSafe(call.target, 200)} (${call.bytes} bytes)` +
      (call.error === undefined ? '' : ` — ${terminalSafe(call.error, 40)}`),
  );
}

/**
 * The files the summary was written from, one line each, terminal-safe — unless the text lists them itself (the
 * built-in model's `## What it read`): under a model's summary the reader still sees what it was based on.
 */
function readLines(structured: unknown, text: string): string[] {
  if (text.includes('## What it read')) return [];
  const files = (structured as Record<string, unknown> | undefined)?.['files'] as
    Array<{ path: string; size: number; truncated: boolean }> | undefined;
  return (files ?? []).map(
    (file) =>
      `- ${terminalSafe(file.path, 200)} (${file.size} bytes${file.truncated ? ', truncated: only the beginning was read' : ''})`,
  );
}

export async function runSummarize(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('summarize', argv, {
    path: { type: 'string' },
    audience: { type: 'string' },
    'max-files': { type: 'string' },
    mode: { type: 'string' },
    json: { type: 'boolean' },
    trace: { type: 'boolean' },
    quiet: { type: 'boolean' },
    'allow-secret-file': { type: 'string', multiple: true },
    ...MODEL_FLAG_OPTIONS,
    ...BUDGET_FLAG_OPTIONS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    writeLine(io.stdout, SUMMARIZE_USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    writeLine(io.stderr, `mcp-model-input: summarize takes one DIR, got ${positionals.length}\n\n${SUMMARIZE_USAGE}`);
    return 2;
  }
  const root = await resolveDirectory('summarize DIR', positionals[0]);
  const maxFiles = parseInteger('--max-files', values['max-files'], 1, 8);
  const mode = values.mode;
  if (mode !== undefined && mode !== 'pick' && mode !== 'explore') {
    throw new ModelInputError('usage', `--mode must be pick or explore, got '${mode}'`);
  }
  const logger = createStderrLogger({ quiet: values.quiet === true, stream: io.stderr });
  const models = modelPlanFromFlags(values, logger, io.env);
  const budgets = budgetsFromFlags(values);
  // The tokenizer's encoder (a few hundred ms of CPU) loads on its own thread beside the run: at once when every
  // file's tokens are needed (--json prints them; a server counts them), else only once the run outlasts a small
  // repository's — the printed summary needs counts only where a token budget binds, and a small run is done first.
  const { startTokenizerThread } = await import('../repo/tokens.js');
  if (values.json === true || values.trace === true || needsProtocol({ models })) {
    startTokenizerThread();
  } else {
    setTimeout(startTokenizerThread, ENCODER_LATE_START_MS).unref();
  }

  // Files listed and read, and each model call while it runs, on one self-erasing stderr line — only on a terminal,
  // never with --quiet or --trace; elsewhere one plain line as each model call starts (not with --quiet).
  const progress = createProgressLine(io.stderr, { enabled: values.quiet !== true && values.trace !== true });
  const shown = progress?.around(logger) ?? logger;
  const reporter = modelCallReporter(progress, shown, values.quiet === true);
  const result = await runLocalSummarize({
    budgets,
    root,
    logger: shown,
    models: reporter === undefined ? models : observeModelCalls(models, reporter),
    args: {
      ...(values.audience !== undefined && { audience: values.audience }),
      ...(values.path !== undefined && { path: values.path }),
      ...(maxFiles !== undefined && { maxFiles }),
      ...(mode !== undefined && { mode }),
    },
    ...(values.trace === true && { trace: (line: string) => io.stderr.write(`trace ${line}\n`) }),
    // The printed summary shows no token counts; --json prints the result whole, counts included.
    fileTokens: values.json === true,
    repository: {
      ...(progress !== undefined && { onProgress: progress.update }),
      ...(values['allow-secret-file'] !== undefined && { allowSecretFiles: values['allow-secret-file'] }),
    },
  }).finally(() => progress?.done());

  const text = result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  if (result.isError === true) {
    writeLine(io.stderr, `mcp-model-input: summarize_repo failed: ${text}`);
    return 1;
  }
  if (values.json === true) {
    writeLine(io.stdout, terminalSafeJson(result.structuredContent ?? {}, 2));
  } else {
    // Model and repository text on the user's terminal: controls and format characters escaped, lines kept.
    writeLine(io.stdout, escapeControls(text, undefined, { multiline: true }));
    const read = readLines(result.structuredContent, text);
    if (read.length > 0) writeLine(io.stdout, ['', 'What it read:', ...read].join('\n'));
    const calls = explorationLines(result.structuredContent);
    if (calls.length > 0) writeLine(io.stdout, ['', 'What the model looked at:', ...calls].join('\n'));
  }
  return 0;
}
