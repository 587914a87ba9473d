/**
 * `mcp-model-input/server`: for server authors. The product's server assembled in a few lines
 * (`createModelInputServer` + a front), or the pieces to build your own tool on the same engine:
 * the tool contract, the low-level server factory, the HTTP and stdio fronts, the flow engine and
 * MRTR round machinery, the sealed request-state codec, model sources, the repository reader and the
 * legacy (2025-11-25) era as a plug-in. Named exports only.
 */

// Shared with every surface.
export { ModelInputError, isModelInputError } from '../errors.js';
export type { ModelInputErrorCode } from '../errors.js';
export { createStderrLogger, silentLogger } from '../logger.js';
export type { Logger } from '../logger.js';

// The product's server, assembled.
export {
  createModelInputHttpFront,
  createModelInputServer,
  serveModelInputStdio,
  SHIPPED_TOOLS,
} from '../app/modelInputServer.js';
export type {
  LegacyOptions,
  ModelInputServer,
  ModelInputServerOptions,
  ServedTool,
  ShippedToolName,
} from '../app/modelInputServer.js';

// Your own server: assembly, the era seam, fronts, principals.
export { createServerFactory, describeTools, SERVER_NAME, toolContextOf } from '../server/createServer.js';
export type { ServerFactoryOptions, ServerIdentity } from '../server/createServer.js';
export type { EraRequestView, ProtocolEra, ServerEra } from '../server/era.js';
export { ANONYMOUS, loadTokensFile, localPrincipal, principalFromAuthInfo } from '../server/principals.js';
export { createHttpFront, defaultAllowedHosts, defaultAllowedOrigins } from '../transports/http.js';
export type { HttpFront, HttpFrontOptions } from '../transports/http.js';
export { listenHttp } from '../transports/nodeHttp.js';
export type { ListeningServer } from '../transports/nodeHttp.js';
export { HEALTH_PATH, READY_PATH } from '../transports/operations.js';
export type { ReadinessCheck } from '../transports/operations.js';
export { listenMetrics } from '../transports/metricsHttp.js';
export type { MetricsListener } from '../transports/metricsHttp.js';

// A fleet: the shared store (single-use state, per-principal counts), limits and metrics.
export {
  createMemoryStore,
  createRedisStore,
  isStoreUnavailableError,
  openStore,
  StoreUnavailableError,
} from '../state/stores/index.js';
export type { LimitOutcome, LimiterOptions, PointLimiter, SharedStore } from '../state/stores/index.js';
export { createPrincipalLimits } from '../server/principalLimits.js';
export type { Admission, PrincipalLimits, PrincipalLimitsOptions } from '../server/principalLimits.js';
export { createServerMetrics } from '../server/metrics.js';
export type { RequestOutcome, ServerMetrics } from '../server/metrics.js';
export { EnvelopeGatedTransport, serveStdioFront } from '../transports/stdio.js';
export type { StdioFrontOptions } from '../transports/stdio.js';
export { checkRequestEnvelope } from '../protocol/envelope.js';
export type { EnvelopeRejection } from '../protocol/envelope.js';
export { LEGACY_REVISION, MODERN_REVISION, SUPPORTED_VERSIONS } from '../protocol/revisions.js';

// The legacy (2025-11-25) era, as a plug-in (`createServerFactory({ era: era.server })`, fronts' `sessions`/`era`).
export {
  createLegacyEra,
  DEFAULT_MAX_SAMPLES_PER_CALL,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_SECONDS,
  SAMPLING_DEPRECATION_WARNING,
  SAMPLING_REJECTED_CODE,
} from '../legacy/index.js';
export type { LegacyEraOptions, LegacyHttpOptions, LegacyServerOptions } from '../legacy/index.js';

// Tools, flows and the MRTR round machinery.
export { defineTool } from '../flows/tool.js';
export type { AnyToolDefinition, ToolContext, ToolDefinition } from '../flows/tool.js';
export { runFlow } from '../flows/engine.js';
export type { EngineOptions, SealedFlow } from '../flows/engine.js';
export { answerText } from '../flows/flow.js';
export type {
  FlowDefinition,
  FlowState,
  ModelStep,
  PreparedRequest,
  StepOutcome,
  StepRecovery,
} from '../flows/flow.js';
export { FlowAnswerError } from '../flows/flowAnswerError.js';
export {
  askForInput,
  askWithoutState,
  DEFAULT_MAX_ROUNDS,
  openRound,
  STORE_UNAVAILABLE_MESSAGE,
} from '../flows/inputRounds.js';
export type {
  OpenedRound,
  RoundEvents,
  RoundOptions,
  RoundRequest,
  RoundTarget,
  SealedRound,
} from '../flows/inputRounds.js';
export { readElicitResult, readRootsResult, readSamplingResult } from '../flows/inputResponses.js';
export { InputResponseError, REJECTED_STATE_MESSAGE, RequestStateRejectedError } from '../flows/roundErrors.js';
export { UnusableAnswerError } from '../flows/unusableAnswerError.js';
export { createSummarizeRepoTool } from '../app/summarizeRepoTool.js';
export type { SummarizeRepoOptions as SummarizeRepoToolOptions } from '../app/summarizeRepoTool.js';

// Model sources.
export {
  createAnthropicMessagesModel,
  createOpenAIChatModel,
  createProviderSource,
  createTieredModel,
  createUsageMeter,
  DEFAULT_MODEL_BUDGET,
  DEFAULT_MODEL_SPEC,
  DEFAULT_RETRY_POLICY,
  isModelProviderError,
  ModelProviderError,
  parseModelSpec,
  preferredTier,
} from '../models/index.js';
export type {
  AnthropicMessagesModelOptions,
  CompletionModel,
  ModelBudget,
  ModelCompletionRequest,
  ModelPlan,
  ModelProviderFailure,
  ModelSource,
  ModelSpecOptions,
  ModelUsage,
  OpenAIChatModelOptions,
  ProviderSettings,
  RetryPolicy,
  UsageTotals,
} from '../models/index.js';
export { BUILTIN_MODEL_NAME, createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';

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
} from '../state/index.js';
export type { KeyRing, StateBinding, StateCodec, StateKey, StateRejectReason } from '../state/index.js';
export { openRepository } from '../repo/index.js';
export type { RepoFile, RepoListing, Repository, SkippedClass, SkipReason } from '../repo/index.js';
export { rankFiles, scoreFile } from '../repo/rank.js';

// The tasks extension (docs/tasks.md): a task service to pass as `createServerFactory({ tasks })`.
export { openTaskService } from '../app/taskService.js';
export type { TaskServiceSettings } from '../app/taskService.js';
export type { TaskService } from '../server/tasks/taskService.js';
