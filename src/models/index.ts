export type { CompletionModel, ModelCompletionRequest } from './modelSource.js';
export { BUILTIN_MODEL_NAME, createBuiltinModel } from './builtin.js';
