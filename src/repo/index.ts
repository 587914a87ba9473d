export {
  openRepository,
  DEFAULT_GIT_TIMEOUT_MS,
  DEFAULT_HISTORY_COMMITS,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_SNIFF_BYTES,
} from './repository.js';
export { formatTruncationMarker } from './reader.js';
export { BINARY_EXTENSIONS } from './classify.js';
export { IGNORE_FILE_NAMES, SUMMARIZE_IGNORE_FILE } from './ignoreRules.js';
export { MAX_SKIP_EXAMPLES } from './skips.js';
export { candidateLineBytes, DEFAULT_CANDIDATE_BYTES } from './survey.js';
export { countTokens, cutToTokens } from './tokens.js';
export { createSurveyCache, sharedSurveyCache } from './surveyCache.js';
export type { SurveyCache, SurveyCacheOptions } from './surveyCache.js';
export type {
  CandidateReader,
  InspectResult,
  ListingSource,
  OutlineEntry,
  RankedCandidate,
  ReadBudget,
  ReadFileResult,
  ReadResult,
  RepoFile,
  RepoListing,
  RepoProgress,
  Repository,
  RepositoryOptions,
  RepoSurvey,
  SkippedClass,
  SkipReason,
  SurveyOptions,
  WalkerReason,
} from './types.js';
export type {
  CommandFact,
  DirectoryRole,
  EntryPointFact,
  LanguageMix,
  LanguageShare,
  Layout,
  LayoutEntry,
  ManifestFact,
  ManifestKind,
  RepoFacts,
} from './facts/types.js';
