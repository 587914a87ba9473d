/**
 * `--approve prompt`: one terminal dialog per round (@clack/prompts). A remembered "always" for the
 * server key and tool answers without asking; without a terminal the approver cannot ask, so it denies.
 * Dialogs never overlap: concurrent reviews wait their turn, and while one is open it holds the terminal
 * (a stdio server's stderr waits, see serverStderr.ts).
 *
 * Every screen of the dialog repeats the round's header and fits the terminal's height, so the header
 * never scrolls away: the first screen is a bounded preview; "View all" pages through everything the
 * model will receive. When the round's signal aborts (the request timed out or was withdrawn), the open
 * dialog closes with a message saying why, and the round is denied.
 */
import type { Readable, Writable } from 'node:stream';

import { isCancel, log, note, select } from '@clack/prompts';

import { terminalSafe } from '../../protocol/sanitize.js';
import { sharedTerminalGate, type TerminalGate } from '../terminalGate.js';
import type { ApprovalDecision, ApprovalRound, Approver } from '../types.js';
import { fitPreview, paginate, roomFor, wrapLines } from './dialogPages.js';
import { isRemembered, readRememberedApprovals, rememberAlways } from './rememberedApprovals.js';
import { renderRound, type RoundRendering } from './roundSummary.js';

export interface PromptApproverOptions {
  /** Default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Default `process.stderr`: stdout may carry the command's result (or, on stdio, the protocol). */
  output?: NodeJS.WritableStream;
  /** Where "always" choices live (see `defaultRememberFile`). */
  rememberFile: string;
  /**
   * Ask even though input or output is not a TTY (tests drive the dialog through plain streams).
   * Default: ask only when both are TTYs.
   */
  interactive?: boolean;
  /** Held while a dialog is open; default the process's (`sharedTerminalGate`). */
  terminal?: TerminalGate;
}

export const NO_TERMINAL_REASON = 'no terminal to ask on (use --approve auto, deny or rules:FILE)';

type Choice = 'approve' | 'approve_call' | 'always' | 'deny' | 'view';
type PageChoice = 'next' | 'previous' | 'back';

/** Terminal size when the output does not say (not a TTY). */
const DEFAULT_COLUMNS = 100;
const DEFAULT_ROWS = 40;
/** Steps one dialog may take (pages viewed, back and forth): a bound, never reached by a person. */
const MAX_STEPS = 10_000;

function isTty(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** Why the round's signal aborted, as one safe line. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return terminalSafe(text === '' || text === 'This operation was aborted' ? 'the request was aborted' : text, 300);
}

/** Checks the remember file once (a corrupt one fails here, at startup), then reviews rounds. */
export async function createPromptApprover(options: PromptApproverOptions): Promise<Approver> {
  const input = (options.input ?? process.stdin) as Readable;
  const output = (options.output ?? process.stderr) as Writable & { columns?: number; rows?: number };
  const file = options.rememberFile;
  const terminal = options.terminal ?? sharedTerminalGate();
  const interactive = options.interactive ?? (isTty(input) && isTty(output));
  await readRememberedApprovals(file);

  function closed(signal: AbortSignal): ApprovalDecision {
    const why = abortReason(signal);
    log.warn(`Dialog closed: ${why}. Nothing was approved.`, { output });
    return { kind: 'deny', reason: `dialog closed: ${why}` };
  }

  async function dialog(rendering: RoundRendering, signal?: AbortSignal): Promise<ApprovalDecision> {
    const width = Math.max(20, (output.columns ?? DEFAULT_COLUMNS) - 8);
    const rows = output.rows ?? DEFAULT_ROWS;
    const header = wrapLines(rendering.header, width);
    const pages = paginate(wrapLines(rendering.full, width), roomFor(rows, header.length + 2, 3));
    const preview = fitPreview(wrapLines(rendering.preview, width), roomFor(rows, header.length, 5));
    const ask = { input, output, ...(signal === undefined ? {} : { signal }) };
    let page: number | undefined;
    for (let step = 0; step < MAX_STEPS; step++) {
      if (page === undefined) {
        note([...header, ...preview].join('\n'), rendering.title, { input, output });
        const choice = await select<Choice>({
          message: 'Let this server use your model for this round?',
          options: [
            { value: 'approve', label: 'Approve', hint: 'this round only' },
            { value: 'approve_call', label: 'Approve the rest of this call' },
            { value: 'always', label: 'Always for this server and tool', hint: `remembered in ${file}` },
            { value: 'view', label: 'View all that will be sent', hint: `${pages.length} page(s)` },
            { value: 'deny', label: 'Deny', hint: 'stop the call' },
          ],
          ...ask,
        });
        if (isCancel(choice)) return signal?.aborted ? closed(signal) : { kind: 'deny', reason: 'dialog cancelled' };
        if (choice === 'view') page = 0;
        else if (choice === 'deny') return { kind: 'deny', reason: 'denied by the user' };
        else {
          if (choice === 'always') await rememberAlways(file, rendering.serverKey, rendering.tool);
          return { kind: choice };
        }
        continue;
      }
      const last = pages.length - 1;
      const label = `Everything that will be sent — page ${page + 1}/${pages.length}`;
      note([...header, '', label, ...(pages[page] ?? [])].join('\n'), rendering.title, { input, output });
      const move = await select<PageChoice>({
        message: `Page ${page + 1} of ${pages.length}`,
        options: [
          ...(page < last ? [{ value: 'next' as const, label: 'Next page' }] : []),
          ...(page > 0 ? [{ value: 'previous' as const, label: 'Previous page' }] : []),
          { value: 'back' as const, label: 'Back to the decision' },
        ],
        ...ask,
      });
      if (isCancel(move)) return signal?.aborted ? closed(signal) : { kind: 'deny', reason: 'dialog cancelled' };
      page = move === 'next' ? Math.min(last, page + 1) : move === 'previous' ? Math.max(0, page - 1) : undefined;
    }
    return { kind: 'deny', reason: 'dialog cancelled' };
  }

  async function reviewOne(round: ApprovalRound, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (isRemembered(await readRememberedApprovals(file), round.server.key, round.tool)) return { kind: 'always' };
    if (!interactive) return { kind: 'deny', reason: NO_TERMINAL_REASON };
    if (signal?.aborted) return { kind: 'deny', reason: `dialog closed: ${abortReason(signal)}` };
    const release = terminal.hold();
    try {
      return await dialog(renderRound(round), signal);
    } finally {
      release();
    }
  }

  let queue: Promise<unknown> = Promise.resolve();
  return {
    review(round, signal) {
      const turn = queue.then(() => reviewOne(round, signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
