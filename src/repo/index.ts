export { openRepository, DEFAULT_MAX_FILE_BYTES, DEFAULT_SNIFF_BYTES } from './repository.js';
export { formatTruncationMarker } from './reader.js';
export { BINARY_EXTENSIONS } from './classify.js';
export { IGNORE_FILE_NAMES } from './ignoreRules.js';
export { MAX_SKIP_EXAMPLES } from './skips.js';
export type {
  ReadBudget,
  ReadFileResult,
  ReadResult,
  RepoFile,
  RepoListing,
  Repository,
  RepositoryOptions,
  SkippedClass,
  SkipReason,
} from './types.js';
