/**
 * mcp-model-input as a library: the server assembly, the flow engine and its model seam,
 * the request-state codec and the repository reader. Named exports only.
 */
export { ModelInputError, isModelInputError } from './errors.js';
export type { ModelInputErrorCode } from './errors.js';
export { createStderrLogger, silentLogger } from './logger.js';
export type { Logger } from './logger.js';
export { VERSION } from './version.js';

// Server assembly and fronts.
export {
  createModelInputHttpFront,
  createModelInputServer,
  serveModelInputStdio,
} from './app/modelInputServer.js';
export type { LegacyOptions, ModelInputServer, ModelInputServerOptions } from './app/modelInputServer.js';
export { createServerFactory, describeTools, SERVER_NAME } from './server/createServer.js';
export type { ServerFactoryOptions, ServerIdentity } from './server/createServer.js';
export { checkRequestEnvelope } from './protocol/envelope.js';
export { SUPPORTED_VERSIONS } from './protocol/revisions.js';
export type { EnvelopeRejection } from './protocol/envelope.js';
export { defineTool } from './flows/tool.js';
export type { AnyToolDefinition, ToolContext, ToolDefinition } from './flows/tool.js';
export { ANONYMOUS, loadTokensFile, localPrincipal } from './server/principals.js';
export { createHttpFront, defaultAllowedHosts, defaultAllowedOrigins } from './transports/http.js';
export type { HttpFront, HttpFrontOptions } from './transports/http.js';
export { listenHttp } from './transports/nodeHttp.js';
export type { ListeningServer } from './transports/nodeHttp.js';
export { EnvelopeGatedTransport, serveStdioFront } from './transports/stdio.js';
export type { StdioFrontOptions } from './transports/stdio.js';

// Flows and model sources.
export { runFlow, DEFAULT_MAX_ROUNDS } from './flows/engine.js';
export type { EngineOptions, SealedFlow } from './flows/engine.js';
export { answerText } from './flows/flow.js';
export type { FlowDefinition, FlowState, ModelStep, PreparedRequest, StepOutcome } from './flows/flow.js';
export { FlowAnswerError } from './flows/flowAnswerError.js';
export { createSummarizeRepoTool } from './flows/summarizeRepo/tool.js';
export type { SummarizeRepoToolOptions } from './flows/summarizeRepo/tool.js';
export { summarizeRepoInput, summarizeRepoOutput } from './flows/summarizeRepo/schema.js';
export type { SummarizeRepoArgs, SummarizeRepoOutput } from './flows/summarizeRepo/schema.js';
export type { StepRecovery } from './flows/flow.js';
export {
  BUILTIN_MODEL_NAME,
  createAnthropicMessagesModel,
  createBuiltinModel,
  createOpenAIChatModel,
  createProviderSource,
  createTieredModel,
  createUsageMeter,
  DEFAULT_MODEL_BUDGET,
  DEFAULT_MODEL_SPEC,
  DEFAULT_RETRY_POLICY,
  isModelProviderError,
  ModelProviderError,
  preferredTier,
} from './models/index.js';
export type {
  AnthropicMessagesModelOptions,
  CompletionModel,
  ModelBudget,
  ModelCompletionRequest,
  ModelProviderFailure,
  ModelSpecOptions,
  ModelUsage,
  OpenAIChatModelOptions,
  ProviderSettings,
  RetryPolicy,
  UsageTotals,
} from './models/index.js';
export { parseModelSpec } from './models/sources.js';
export type { ModelPlan, ModelSource } from './models/sources.js';

// Request state and the repository reader.
export {
  createEphemeralKeyRing,
  createKeyRing,
  createStateCodec,
  digestArguments,
  generateStateKey,
  loadKeyRing,
  parseStateKeys,
  StateRejectedError,
} from './state/index.js';
export type { KeyRing, StateBinding, StateCodec, StateKey, StateRejectReason } from './state/index.js';
export { openRepository } from './repo/index.js';
export type { RepoFile, RepoListing, Repository, SkippedClass, SkipReason } from './repo/index.js';
export { rankFiles, scoreFile } from './repo/rank.js';

// The in-process main job.
export { runLocalSummarize } from './app/localSummarize.js';
export type { LocalSummarizeOptions } from './app/localSummarize.js';

// The sampling-migration planner and the live compliance probe.
export {
  buildPlan,
  loadWorkflowFile,
  parseWorkflow,
  renderPlanJson,
  renderPlanMarkdown,
  WORKFLOW_SCHEMA,
  WorkflowInvalidError,
} from './plan/index.js';
export type { Plan, Verdict, Workflow, WorkflowIssue } from './plan/index.js';
export { RULES as AUDIT_RULES, renderAuditText, runAudit } from './audit/index.js';
export type { AuditOptions, AuditReport, RuleResult } from './audit/index.js';

// Legacy (2025-11-25) adapter.
export { createDeprecationNotice, SAMPLING_DEPRECATION_WARNING } from './legacy/deprecation.js';
export { SAMPLING_REJECTED_CODE } from './legacy/legacyServer.js';
export { DEFAULT_MAX_SAMPLES_PER_CALL, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from './legacy/options.js';
export type { LegacyHttpOptions, LegacyServerOptions } from './legacy/options.js';
