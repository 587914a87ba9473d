/**
 * `--approve prompt`: one terminal dialog per round (@clack/prompts). A remembered "always" for the
 * server key and tool answers without asking; without a terminal the approver cannot ask, so it denies.
 * Dialogs never overlap: concurrent reviews wait their turn.
 */
import type { Readable, Writable } from 'node:stream';

import { isCancel, note, select } from '@clack/prompts';

import type { ApprovalDecision, ApprovalRound, Approver } from '../types.js';
import { isRemembered, readRememberedApprovals, rememberAlways } from './rememberedApprovals.js';
import { summarizeRound } from './roundSummary.js';

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
}

export const NO_TERMINAL_REASON = 'no terminal to ask on (use --approve auto, deny or rules:FILE)';

type Choice = 'approve' | 'approve_call' | 'always' | 'deny';

function isTty(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** Checks the remember file once (a corrupt one fails here, at startup), then reviews rounds. */
export async function createPromptApprover(options: PromptApproverOptions): Promise<Approver> {
  const input = (options.input ?? process.stdin) as Readable;
  const output = (options.output ?? process.stderr) as Writable;
  const file = options.rememberFile;
  const interactive = options.interactive ?? (isTty(input) && isTty(output));
  await readRememberedApprovals(file);

  async function reviewOne(round: ApprovalRound, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (isRemembered(await readRememberedApprovals(file), round.server.key, round.tool)) return { kind: 'always' };
    if (!interactive) return { kind: 'deny', reason: NO_TERMINAL_REASON };
    if (signal?.aborted) return { kind: 'deny', reason: 'dialog cancelled' };
    const { title, body } = summarizeRound(round);
    note(body, title, { input, output });
    const choice = await select<Choice>({
      message: 'Let this server use your model for this round?',
      options: [
        { value: 'approve', label: 'Approve', hint: 'this round only' },
        { value: 'approve_call', label: 'Approve the rest of this call' },
        { value: 'always', label: 'Always for this server and tool', hint: `remembered in ${file}` },
        { value: 'deny', label: 'Deny', hint: 'stop the call' },
      ],
      input,
      output,
      ...(signal === undefined ? {} : { signal }),
    });
    if (isCancel(choice)) return { kind: 'deny', reason: 'dialog cancelled' };
    if (choice === 'deny') return { kind: 'deny', reason: 'denied by the user' };
    if (choice === 'always') await rememberAlways(file, round.server.key, round.tool);
    return { kind: choice };
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
