/** The approval layer: the `--approve` modes, the terminal dialog, rules files and remembered choices. */
export { parseApprovalMode, type ApprovalMode } from './approvalMode.js';
export { createApprover, DENY_MODE_REASON, type ApproverOptions } from './createApprover.js';
export { createPromptApprover, NO_TERMINAL_REASON, type PromptApproverOptions } from './promptApprover.js';
export {
  defaultRememberFile,
  isRemembered,
  readRememberedApprovals,
  rememberAlways,
  REMEMBER_FILE_NAME,
  type RememberedApproval,
  type RememberedApprovals,
} from './rememberedApprovals.js';
export { summarizeRound, describePreferences, SUMMARY_LIMITS } from './roundSummary.js';
export {
  createRulesApprover,
  decideByRules,
  loadApprovalRules,
  MAX_RULES_FILE_BYTES,
  type ApprovalRule,
} from './rulesApprover.js';
