export { createExplorer } from './explorer.js';
export type { Explorer, ExplorerOptions } from './explorer.js';
export { compileSearchPattern } from './searchPattern.js';
export {
  DEFAULT_EXPLORE_TOOL_LIMITS,
  EXPLORE_ARGUMENT_LIMITS,
  type ExploreCall,
  type ExploredFile,
  type ExploreErrorCode,
  type ExploreResult,
  type ExploreToolLimits,
  type ExploreToolName,
} from './types.js';
