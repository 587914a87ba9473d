/**
 * `mcp-model-input/tool`: for tool authors. `defineModelTool` with an await-style `ctx.sample()` that works on every
 * model path (a server-owned provider, the host's model over MRTR rounds or live sampling, the tool's built-in
 * model) and both protocol revisions; `createModelKit` for what a server's tools share; `isModelTool`, which
 * recognises a tool made by any copy of this package. Guide: docs/writing-tools.md. Named exports only.
 */
export { createModelKit, defineModelTool, isModelTool, ReplayMismatchError } from '../kit/index.js';
export { registerModelTool } from '../app/registerModelTool.js';
export type {
  BuiltinAnswer,
  BuiltinContext,
  BuiltinModel,
  DiffFile,
  DiffOutcome,
  DiffRequest,
  KitEvents,
  ModelKit,
  ModelKitOptions,
  ModelStepSpec,
  ModelTool,
  ModelToolContext,
  ModelToolDefinition,
  RouteRecord,
  SampleAnswer,
  SampleRequest,
  SampleRoute,
  ToolRepo,
} from '../kit/index.js';
