/**
 * `mcp-model-input/host`: the client's trust boundary for model input that servers ask for — the
 * runtime, its policies, approval, host models and the audit log. Named exports only.
 */
export { createHost, DEFAULT_HOST_MAX_ROUNDS } from './createHost.js';
export { createHostClient, hostCapabilities } from './client.js';
export type { HostClientOptions } from './client.js';
export { clientTransport, splitCommand, targetKey } from './target.js';
export type { ClientTransportOptions } from './target.js';
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
} from './createHost.js';
export { HostError, isHostError } from './hostError.js';
export type { HostErrorCode, HostErrorDetail } from './hostError.js';
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
} from './types.js';

// Policies.
export { DEFAULT_REQUEST_LIMITS } from './policies/limits.js';
export type { RequestLimits } from './policies/limits.js';
export { checkCapabilities } from './policies/capabilityGate.js';
export { estimateTokens, samplingRequestBytes, validateInputRequest } from './policies/validateRequest.js';
export { createCallBudget, DEFAULT_BUDGET_LIMITS } from './policies/budgets.js';
export type { BudgetLimits, CallBudget } from './policies/budgets.js';
export { createRateLimiter, DEFAULT_RATE_LIMIT, rateLimitKeys, sharedRateLimiter } from './policies/rateLimit.js';
export type { RateLimiter, RateLimitOptions } from './policies/rateLimit.js';
export { checkModelResponse, offeredTools, responseBytes } from './policies/responseCheck.js';
export type { ResponseCheckOptions } from './policies/responseCheck.js';
export { answerToolProblem, toolPairingProblem } from './policies/toolPairing.js';
export type { OfferedTools } from './policies/toolPairing.js';
export { selectHostModel, TIER_ATTRIBUTES } from './policies/modelPolicy.js';
export type { HostModelEntry } from './policies/modelPolicy.js';

// Approval, elicitation at the terminal, the audit log.
export { createApprover, createPromptApprover, createRulesApprover, parseApprovalMode } from './approval/index.js';
export type { ApprovalMode, ApproverOptions } from './approval/index.js';
export { renderRound } from './approval/roundSummary.js';
export type { RoundRendering } from './approval/roundSummary.js';
export { createTerminalElicitor } from './elicitTerminal.js';
export type { TerminalElicitor } from './elicitTerminal.js';
export { createTerminalGate, sharedTerminalGate } from './terminalGate.js';
export type { TerminalGate } from './terminalGate.js';
export { createPrefixedStderr, openServerStderr, parseServerStderr } from './serverStderr.js';
export type { ServerStderrMode, ServerStderrTarget } from './serverStderr.js';
export { revealInvisible, terminalSafe } from '../protocol/sanitize.js';
export { createAuditLog, silentAuditLog } from './auditLog.js';
export type { AuditLog } from './auditLog.js';

// Host models.
export { DEFAULT_HOST_MODEL_SPEC, parseHostModelSpec } from './hostModels.js';
export { createScriptedModel } from '../models/scripted.js';
export { BUILTIN_MODEL_NAME, createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
export type {
  ScriptedAnswer,
  ScriptedAnswers,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedToolTurn,
} from '../models/scripted.js';
