/**
 * The deterministic model the host runtime and the audit answer with when told `builtin`: the composition's choice
 * (summarize_repo's heuristic, the shipped tool they are run against), so that neither imports a tool.
 */
import { createBuiltinModel } from '../flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../models/modelSource.js';

export function defaultBuiltinModel(): CompletionModel {
  return createBuiltinModel();
}
