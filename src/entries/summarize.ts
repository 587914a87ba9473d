/**
 * `mcp-model-input/summarize`: the main job as a function. `runLocalSummarize` serves
 * `summarize_repo` in-process and calls it with the official client (2026-07-28), on the built-in
 * model by default: no keys, no network. The result's `structuredContent` follows
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
