/**
 * `mcp-model-input/host`: the client's trust boundary for model input that servers ask for — the
 * runtime, its policies, approval, host models and the audit log. Named exports only.
 */
export { createHost, DEFAULT_HOST_MAX_ROUNDS } from '../host/createHost.js';
export { createHostClient, hostCapabilities } from '../host/client.js';
export type { HostClientOptions } from '../host/client.js';
export { clientTransport, splitCommand, targetKey } from '../host/target.js';
export type { ClientTransportOptions } from '../host/target.js';
export type {
  DeclinedSampling,
  Discovery,
  Host,
  HostCallOptions,
  HostCallResult,
  HostConnection,
  HostOptions,
  HostTarget,
  OnDeny,
} from '../host/createHost.js';
export { HostError, isHostError } from '../host/hostError.js';
export type { HostErrorCode, HostErrorDetail } from '../host/hostError.js';
export type {
  ApprovalDecision,
  ApprovalRound,
  Approver,
  AuditDecision,
  AuditEntry,
  CallPosition,
  RawInputRequest,
  ConnectedServer,
  ValidInputRequest,
} from '../host/types.js';
import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import { parseHostModelSpec as parseHostModels, type HostModelSpecOptions } from '../host/hostModels.js';
import type { HostModelEntry } from '../host/policies/modelPolicy.js';

// Policies.
export { DEFAULT_REQUEST_LIMITS } from '../host/policies/limits.js';
export type { RequestLimits } from '../host/policies/limits.js';
export { checkCapabilities } from '../host/policies/capabilityGate.js';
export { estimateTokens, samplingRequestBytes, validateInputRequest } from '../host/policies/validateRequest.js';
export { createCallBudget, DEFAULT_BUDGET_LIMITS } from '../host/policies/budgets.js';
export type { BudgetLimits, CallBudget } from '../host/policies/budgets.js';
export { createRateLimiter, DEFAULT_RATE_LIMIT, rateLimitKeys, sharedRateLimiter } from '../host/policies/rateLimit.js';
export type { RateLimiter, RateLimitOptions } from '../host/policies/rateLimit.js';
export { checkModelResponse, offeredTools, responseBytes } from '../host/policies/responseCheck.js';
export type { ResponseCheckOptions } from '../host/policies/responseCheck.js';
export { answerToolProblem, toolPairingProblem } from '../host/policies/toolPairing.js';
export type { OfferedTools } from '../host/policies/toolPairing.js';
export { selectHostModel, TIER_ATTRIBUTES } from '../host/policies/modelPolicy.js';
export type { HostModelEntry } from '../host/policies/modelPolicy.js';

// Approval, elicitation at the terminal, the audit log.
export {
  createApprover,
  createPromptApprover,
  createRulesApprover,
  parseApprovalMode,
} from '../host/approval/index.js';
export type { ApprovalMode, ApproverOptions } from '../host/approval/index.js';
export { renderRound } from '../host/approval/roundSummary.js';
export type { RoundRendering } from '../host/approval/roundSummary.js';
export { createTerminalElicitor } from '../host/elicitTerminal.js';
export type { TerminalElicitor } from '../host/elicitTerminal.js';
export { createTerminalGate, sharedTerminalGate } from '../host/terminalGate.js';
export type { TerminalGate } from '../host/terminalGate.js';
export { createPrefixedStderr, openServerStderr, parseServerStderr } from '../host/serverStderr.js';
export type { ServerStderrMode, ServerStderrTarget } from '../host/serverStderr.js';
export { revealInvisible, terminalSafe } from '../protocol/sanitize.js';
export { createAuditLog, silentAuditLog } from '../host/auditLog.js';
export type { AuditLog } from '../host/auditLog.js';

// Host models.
export { DEFAULT_HOST_MODEL_SPEC } from '../host/hostModels.js';
export type { HostModelSpecOptions } from '../host/hostModels.js';
export { createScriptedModel } from '../models/scripted.js';
export { BUILTIN_MODEL_NAME, createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';

/**
 * Parses `--host-model`; `builtin` is summarize_repo's deterministic heuristic unless `options.builtin` names another
 * model (the host runtime knows no tool: this surface, a composition, chooses it).
 */
export function parseHostModelSpec(spec: string, options: HostModelSpecOptions = {}): Promise<HostModelEntry[]> {
  return parseHostModels(spec, { builtin: createBuiltinModel(), ...options });
}
export type {
  ScriptedAnswer,
  ScriptedAnswers,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedToolTurn,
} from '../models/scripted.js';
