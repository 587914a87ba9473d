/**
 * The approver behind `--approve`: picks the implementation for a mode. Rules files and the
 * remembered-approvals file are read here, so a bad file fails at startup rather than mid-call.
 */
import type { TerminalGate } from '../terminalGate.js';
import type { ApprovalDecision, Approver } from '../types.js';
import type { ApprovalMode } from './approvalMode.js';
import { createPromptApprover } from './promptApprover.js';
import { defaultRememberFile } from './rememberedApprovals.js';
import { createRulesApprover } from './rulesApprover.js';

export interface ApproverOptions {
  /** The prompt mode's keyboard; default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Where the prompt mode draws its dialog; default `process.stderr` (stdout may carry results). */
  output?: NodeJS.WritableStream;
  /** The prompt mode's "always" file; default `defaultRememberFile()`. */
  rememberFile?: string;
  /** The prompt mode asks even without TTYs (tests); default: only when input and output are TTYs. */
  interactive?: boolean;
  /** The prompt mode holds it while a dialog is open (server stderr waits); default the process's. */
  terminal?: TerminalGate;
}

export const DENY_MODE_REASON = 'approval mode is deny';

export async function createApprover(mode: ApprovalMode, options: ApproverOptions = {}): Promise<Approver> {
  switch (mode.kind) {
    case 'auto':
      return { review: async (): Promise<ApprovalDecision> => ({ kind: 'approve' }) };
    case 'deny':
      return { review: async (): Promise<ApprovalDecision> => ({ kind: 'deny', reason: DENY_MODE_REASON }) };
    case 'rules':
      return createRulesApprover(mode.file);
    case 'prompt':
      return createPromptApprover({ ...options, rememberFile: options.rememberFile ?? defaultRememberFile() });
  }
}
