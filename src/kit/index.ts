/** The kit's surface inside the project (app/, entries/): the public `./tool` entry re-exports from here. */
export { createModelKit } from './kit.js';
export type { KitEvents, ModelKit, ModelKitOptions, RouteRecord } from './kit.js';
export { defineModelTool, isModelTool, MODEL_TOOL_MARKER, MODEL_TOOL_VERSION } from './modelTool.js';
export type {
  BuiltinAnswer,
  BuiltinContext,
  BuiltinModel,
  ModelStepSpec,
  ModelTool,
  ModelToolContext,
  ModelToolDefinition,
  SampleAnswer,
  SampleRequest,
  SampleRoute,
} from './modelTool.js';
export { DEFAULT_INLINE_JOURNAL_BYTES, ReplayMismatchError } from './journal.js';
export { runModelTool } from './runModelTool.js';
export { modelToolDefinition } from './serveModelTool.js';
export type { ToolRepo } from './toolRepo.js';
export type { DiffFile, DiffOutcome, DiffRequest } from '../repo/gitDiff.js';
