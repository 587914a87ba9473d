/**
 * `mcp-model-input call TOOL`: one tool call through the host runtime, which answers the model
 * input the server asks for — under the approval mode, the request limits, the round cap, the
 * budgets and the rate limit — and prints the result.
 *
 * Exit codes: 0 success, 1 the tool answered with an error result, 2 usage or configuration,
 * 3 denied (approval), 4 stopped by a host policy (or the host's model failed), 5 protocol or
 * connection error, 6 the result was printed cut (`--json`: nested deeper than the print depth limit),
 * 130 cancelled (Ctrl-C, at a question too: the whole round stops).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { CallToolResult } from '@modelcontextprotocol/client';

import { ModelInputError } from '../errors.js';
import { createStderrLogger } from '../logger.js';
import { createApprover, parseApprovalMode } from '../host/approval/index.js';
import { createAuditLog, silentAuditLog, type AuditLog } from '../host/auditLog.js';
import { createHost, type HostCallResult, type OnDeny } from '../host/createHost.js';
import { declineElicitor, createRulesElicitor } from '../host/elicitRules.js';
import { createTerminalElicitor, type TerminalElicitor } from '../host/elicitTerminal.js';
import { isHostError, type HostError } from '../host/hostError.js';
import { defaultBuiltinModel } from '../app/builtinModels.js';
import { DEFAULT_HOST_MODEL_SPEC, parseHostModelSpec } from '../host/hostModels.js';
import { createTerminalGate, type TerminalGate } from '../host/terminalGate.js';
import { readInputFile } from '../plan/readInput.js';
import { terminalSafe, terminalSafeJson } from '../protocol/sanitize.js';
import { parseCommandArgs, parseInteger } from './args.js';
import { beforeEachWrite, createCallStatus } from './callStatus.js';
import { HOST_TARGET_OPTIONS, hostTargetFromFlags, withServerStderr } from './hostTarget.js';
import { CUT_MARKER, depthLimited, MAX_PRINT_DEPTH } from './jsonDepth.js';
import { CALL_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

export const CALL_EXIT = {
  ok: 0,
  toolError: 1,
  usage: 2,
  denied: 3,
  policyStop: 4,
  protocolError: 5,
  /** `--json`: the result is nested past the print depth limit and was printed cut there. */
  resultCut: 6,
  /** Ctrl-C (or the task cancelled): the shell's code for a process ended by SIGINT. */
  cancelled: 130,
} as const;

export function exitCodeForHostError(error: HostError): number {
  if (error.code === 'approval_denied') return CALL_EXIT.denied;
  if (error.code === 'protocol_error') return CALL_EXIT.protocolError;
  if (error.code === 'cancelled') return CALL_EXIT.cancelled;
  return CALL_EXIT.policyStop;
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ModelInputError('usage', 'call: --args is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ModelInputError('usage', 'call: --args must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Longest stderr line (error, last result, progress) built from what a server sent. */
const MAX_LINE_CHARS = 2000;
/** Longest tool error text shown on stderr. */
const MAX_ERROR_TEXT_CHARS = 8000;

/** One stderr line that may carry server text (keys, JSON-RPC error messages): no terminal controls, bounded. */
function sayLine(io: CliIo, text: string): void {
  writeLine(io.stderr, terminalSafe(text, MAX_LINE_CHARS));
}

function resultText(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n')
    .trimEnd();
}

/** Prints the outcome; false when it had to be cut (nested past the print depth limit). */
function printResult(io: CliIo, outcome: HostCallResult, json: boolean): boolean {
  if (json) {
    const { value, cut } = depthLimited(outcome);
    writeLine(io.stdout, terminalSafeJson(value, 2));
    if (cut) {
      writeLine(
        io.stderr,
        `mcp-model-input: the result is nested deeper than ${MAX_PRINT_DEPTH} levels; deeper values were printed as "${CUT_MARKER}"`,
      );
    }
    return !cut;
  }
  const text = resultText(outcome.result);
  if (outcome.result.isError === true) {
    const shown = terminalSafe(text, MAX_ERROR_TEXT_CHARS, { multiline: true });
    writeLine(io.stderr, `mcp-model-input: the tool answered with an error: ${shown}`);
  } else {
    // The result is the server's text: on a terminal it must not drive the terminal; piped, it is passed on as is.
    writeLine(io.stdout, io.stdout.isTTY === true ? terminalSafe(text, Infinity, { multiline: true }) : text);
  }
  return true;
}

function parseOnDeny(value: string | undefined): OnDeny {
  if (value === undefined || value === 'stop' || value === 'fallback') return value ?? 'stop';
  throw new ModelInputError('usage', `call: --on-deny must be stop or fallback, got '${terminalSafe(value, 40)}'`);
}

const MAX_ELICIT_RULES_BYTES = 1024 * 1024;

/**
 * `--elicit prompt|auto-decline|rules:FILE`: who answers form-mode elicitation. Elicitation is declared in every
 * mode, so a server that offers a tool only to clients with elicitation offers it; the default is `prompt` on a
 * terminal and `auto-decline` otherwise.
 */
async function elicitorFor(
  value: string | undefined,
  interactive: boolean,
  io: CliIo,
  terminal: TerminalGate,
  onInterrupt: () => void,
): Promise<TerminalElicitor> {
  const mode = value ?? (interactive ? 'prompt' : 'auto-decline');
  if (mode === 'prompt') return createTerminalElicitor({ input: io.stdin, output: io.stderr, terminal, onInterrupt });
  if (mode === 'auto-decline') return declineElicitor;
  if (mode.startsWith('rules:') && mode.length > 'rules:'.length) {
    const file = mode.slice('rules:'.length);
    const input = await readInputFile(file, MAX_ELICIT_RULES_BYTES);
    if (!input.ok) throw new ModelInputError('usage', `--elicit: ${file} ${input.problem}`, { cause: input.cause });
    let answers: unknown;
    try {
      answers = JSON.parse(input.text);
    } catch {
      answers = undefined;
    }
    if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
      throw new ModelInputError('usage', `--elicit: ${file} must hold a JSON object of field name to value`);
    }
    return createRulesElicitor(answers as Record<string, unknown>);
  }
  throw new ModelInputError(
    'usage',
    `call: --elicit must be prompt, auto-decline or rules:FILE, got '${terminalSafe(mode, 60)}'`,
  );
}

export async function runCall(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('call', argv, {
    ...HOST_TARGET_OPTIONS,
    args: { type: 'string' },
    'host-model': { type: 'string' },
    approve: { type: 'string' },
    elicit: { type: 'string' },
    'max-rounds': { type: 'string' },
    'on-deny': { type: 'string' },
    audit: { type: 'string' },
    'audit-max-bytes': { type: 'string' },
    root: { type: 'string', multiple: true },
    trace: { type: 'boolean' },
    'no-tasks': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    writeLine(io.stdout, CALL_USAGE);
    return CALL_EXIT.ok;
  }
  if (positionals.length !== 1) {
    throw new ModelInputError('usage', `call: name exactly one TOOL, got ${positionals.length} (see --help)`);
  }
  const tool = positionals[0] as string;
  const target = hostTargetFromFlags('call', values, io.env);
  const args = parseArguments(values.args);
  const mode = parseApprovalMode(values.approve ?? 'prompt');
  const maxRounds = parseInteger('--max-rounds', values['max-rounds'], 1, 100);
  const onDeny = parseOnDeny(values['on-deny']);
  const logger = createStderrLogger({ stream: io.stderr });
  const models = await parseHostModelSpec(values['host-model'] ?? DEFAULT_HOST_MODEL_SPEC, {
    logger,
    env: io.env,
    builtin: defaultBuiltinModel(),
  });
  const interactive = io.stdin.isTTY === true;
  // One terminal: while a dialog holds it, the server's stderr lines wait.
  const terminal = createTerminalGate();
  const approver = await createApprover(mode, { input: io.stdin, output: io.stderr, terminal });
  // Ctrl-C ends the call (a task is sent tasks/cancel) instead of the process, once; a second one is the default.
  // At a question Ctrl-C is a key the prompt reads: the elicitor says so, and the whole round stops too.
  const interrupt = new AbortController();
  const elicit = await elicitorFor(values.elicit, interactive, io, terminal, () => interrupt.abort());
  const roots = values.root?.map((dir) => ({ uri: pathToFileURL(resolve(dir)).href, name: dir }));
  const auditMaxBytes = parseInteger('--audit-max-bytes', values['audit-max-bytes'], 1024, Number.MAX_SAFE_INTEGER);
  let audit: AuditLog = silentAuditLog;
  if (values.audit !== undefined) {
    audit = await createAuditLog(
      values.audit === '-'
        ? { stream: io.stderr }
        : { file: values.audit, ...(auditMaxBytes !== undefined && { maxBytes: auditMaxBytes }) },
    );
  }

  const host = createHost({
    name: 'mcp-model-input-call',
    models,
    approver,
    audit,
    // Declared in every mode: without a terminal it is answered by --elicit (decline by default).
    elicit,
    ...(roots !== undefined && { roots }),
    ...(maxRounds !== undefined && { maxRounds }),
    onDeny,
    ...(values['no-tasks'] === true && { tasks: false }),
    ...(values.trace === true && { trace: (line: string) => io.stderr.write(`trace ${line}\n`) }),
  });
  // The task's state and the call's progress: a spinner line on a terminal, plain lines otherwise (callStatus.ts).
  const status = createCallStatus({ stream: io.stderr, terminal, logger });
  const said = status.around(logger);
  const serverStderr = withServerStderr('call', target, values['server-stderr'], {
    output: beforeEachWrite(io.stderr, () => status.clear()),
    terminal,
  });
  const onInterrupt = (): void => {
    process.off('SIGINT', onInterrupt);
    interrupt.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    const connection = await host.connect(target);
    try {
      const outcome = await connection
        .callTool(tool, args, {
          signal: interrupt.signal,
          onRound: (round, keys) =>
            said.info(terminalSafe(`round ${round}: answered ${keys.join(', ')}`, MAX_LINE_CHARS)),
          onTask: (task) => status.task(task),
          onProgress: (progress) => status.progress(progress),
        })
        .finally(() => status.done());
      if (outcome.declined !== undefined) {
        const how =
          outcome.declined.how === 'retried_without_sampling'
            ? 'the call was made again without declaring sampling'
            : "the server went on without the host's model";
        sayLine(io, `mcp-model-input: sampling declined (${outcome.declined.reason}); ${how} (--on-deny fallback)`);
      }
      const whole = printResult(io, outcome, values.json === true);
      if (outcome.result.isError === true) return CALL_EXIT.toolError;
      return whole ? CALL_EXIT.ok : CALL_EXIT.resultCut;
    } finally {
      await connection.close().catch(() => {});
    }
  } catch (error) {
    if (!isHostError(error)) throw error;
    sayLine(io, `mcp-model-input: call stopped (${error.code}): ${error.message}`);
    if (error.detail.lastResult !== undefined) {
      sayLine(io, `mcp-model-input: last result: ${terminalSafeJson(error.detail.lastResult)}`);
    }
    return exitCodeForHostError(error);
  } finally {
    process.off('SIGINT', onInterrupt);
    await audit.close();
    await serverStderr.close();
  }
}
