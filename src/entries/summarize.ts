/**
 * `mcp-model-input/summarize`: the main job as a function. `runLocalSummarize` runs `summarize_repo`
 * in-process, on the built-in model by default: no keys, no network. With a server-owned model plan it
 * calls the tool directly; when the host's model serves a step, a trace is asked for, or `overMcp` is set,
 * it serves the tool and calls it with the official client (2026-07-28) over an in-memory pipe. The result's `structuredContent` follows
 * `summarizeRepoOutput`. Named exports only.
 */
export { runLocalSummarize } from '../app/localSummarize.js';
export type { LocalSummarizeOptions } from '../app/localSummarize.js';
export { summarizeRepoInput, summarizeRepoOutput } from '../flows/summarizeRepo/schema.js';
export type { SummarizeRepoArgs, SummarizeRepoOutput } from '../flows/summarizeRepo/schema.js';
export type { SummarizeBudgets } from '../flows/summarizeRepo/prompts.js';
export { BUILTIN_MODEL_NAME, createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
export { parseModelSpec } from '../models/sources.js';
export type { ModelPlan } from '../models/sources.js';
