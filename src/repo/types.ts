/** Public types of the deterministic repository reader. */
import type { RepoFacts } from './facts/types.js';

/** An inspected file: a POSIX path relative to the repository root (no leading `./`) and its size in bytes. */
export interface RepoFile {
  path: string;
  size: number;
}

/** Why an entry was left out of a listing, an inspection or a read. */
export type SkipReason =
  | 'ignored'
  | 'binary'
  | 'too_large'
  | 'symlink_outside_root'
  | 'special_file'
  | 'unreadable'
  | 'unsafe_name'
  | 'vcs_dir'
  | 'secret_file';

/** One class of skipped entries: how many, and at most five examples (sorted). */
export interface SkippedClass {
  reason: SkipReason;
  count: number;
  examples: string[];
}

/** Why the built-in walker listed the tree instead of `git ls-files`. */
export type WalkerReason =
  'disabled' | 'not_a_git_work_tree' | 'git_unavailable' | 'git_failed' | 'git_timeout' | 'git_output_too_large';

export type ListingSource = { kind: 'git' } | { kind: 'walker'; reason: WalkerReason };

export interface RepoListing {
  /** `''` for the root, else the validated sub-path (normalized, relative to the root). */
  base: string;
  /**
   * Every listed path, sorted in UTF-16 code-unit order: it passed the listing filters (`.git`, ignore rules,
   * binary extensions, entry type). Contents are not opened yet: {@link Repository.inspect} applies the size cap,
   * the NUL sniff and the symlink checks.
   */
  paths: string[];
  /** Only non-zero classes, sorted by reason. */
  skipped: SkippedClass[];
  source: ListingSource;
}

export interface InspectResult {
  /** The paths that are readable text files, in the order asked, with their sizes. */
  files: RepoFile[];
  skipped: SkippedClass[];
}

/** One line of the directory outline: a directory (or `''` for files directly in the base) and what it holds. */
export interface OutlineEntry {
  /** POSIX path relative to the root, with a trailing `/`; `''` stands for the files directly in the base. */
  dir: string;
  files: number;
  /** Up to three languages with their share of the files, largest first. */
  languages: { language: string; files: number }[];
  /** Depth below the base: 1 for a top directory, 2 for one of its sub-directories. */
  depth: number;
}

export interface RankedCandidate extends RepoFile {
  score: number;
  reasons: string[];
}

export interface SurveyOptions {
  /**
   * Inspect candidates in rank order until their `path<TAB>bytes` lines add up to this many bytes (or the list
   * runs out). Default 24 KiB.
   */
  candidateBytes?: number;
  /** Compute the whole-repository facts (default true). */
  facts?: boolean;
  /**
   * With a survey cache: first wait until the watch on the root, begun by an earlier survey, is complete, so that
   * this survey can be kept (the server's warm-up, which is not in a hurry). Default false: a call never waits.
   */
  whenWatched?: boolean;
}

/** What the pick prompt is built from: an outline of the whole listing plus the best inspected candidates. */
export interface RepoSurvey {
  base: string;
  source: ListingSource;
  /** How many paths were listed. */
  total: number;
  outline: OutlineEntry[];
  /** How many directories the outline leaves out, and how many files they hold. */
  outlineRest: { dirs: number; files: number };
  /** Inspected readable files, best first. */
  candidates: RankedCandidate[];
  /** How many listed paths were inspected to find the candidates. */
  inspected: number;
  /** Whether git history was available for the recency signal. */
  history: boolean;
  /** Listing skips plus what the inspection found. */
  skipped: SkippedClass[];
  /** Whole-repository facts (languages, layout, manifests, entry points), unless turned off. */
  facts?: RepoFacts;
}

export interface ReadBudget {
  /** At most this many bytes of each file are shown. */
  perFileBytes: number;
  /** At most this many bytes are shown across all files of one read. */
  totalBytes: number;
  /** At most this many tokens (estimated) of each file are shown. Default: no token limit. */
  perFileTokens?: number;
  /** At most this many tokens (estimated) are shown across all files of one read. Default: no token limit. */
  totalTokens?: number;
  /**
   * Whether each file reports its tokens (default true). With false, a file's text is tokenized only where a token
   * budget's decision needs its exact count (a token covers at least one UTF-8 byte, so bytes bound the count):
   * the same files and cuts, without loading the encoder for a read that fits — for a caller that shows no counts.
   */
  fileTokens?: boolean;
}

export interface ReadFileResult {
  path: string;
  size: number;
  content: string;
  truncated: boolean;
  bytesShown: number;
  /** Estimated tokens of `content` (gpt-tokenizer, o200k_base); absent when the budget asked for no counts. */
  tokens?: number;
  encoding: 'utf8' | 'utf16le' | 'utf16be' | 'replaced';
  /**
   * When the file was cut: the text right after the cut (a few KiB), never shown. The redactor scans the content
   * with it, so that a secret across the cut is recognised whole and replaced whole.
   */
  after?: string;
}

export interface ReadResult {
  files: ReadFileResult[];
  skipped: SkippedClass[];
  totalBytesShown: number;
  /** Estimated tokens of every file's content; absent when the budget asked for no counts. */
  totalTokens?: number;
}

/** Progress of the slow parts, for a front that wants to show it. Never carries file contents. */
export type RepoProgress =
  | { phase: 'listing'; files: number }
  | { phase: 'listed'; files: number; source: ListingSource }
  | { phase: 'inspecting'; done: number }
  | { phase: 'reading'; done: number; of: number };

export interface RepositoryOptions {
  /** Files larger than this are skipped `too_large` when inspected. Default 1 MiB. */
  maxFileBytes?: number;
  /** How many leading bytes are searched for a NUL byte to tell binary files. Default 8000. */
  sniffBytes?: number;
  /** `auto` (default): `git ls-files` when the root holds `.git`, else the walker. `walker`: never run git. */
  listing?: 'auto' | 'walker';
  /** The git executable. Default `git` (found on PATH). */
  gitCommand?: string;
  /** A git run taking longer is killed and the walker lists instead. Default 10,000 ms. */
  gitTimeoutMs?: number;
  /** How many recent commits feed the recency signal of the ranking; 0 turns it off. Default 50. */
  historyCommits?: number;
  /** Called with progress while listing, inspecting and reading. Must not throw. */
  onProgress?: (event: RepoProgress) => void;
  /**
   * Keeps surveys between calls while a watch on the tree sees no change (surveyCache.ts). Default: none — every
   * survey lists the tree.
   */
  cache?: SurveyCache;
  /**
   * Aborting stops the work of this repository object: running `git` children are killed, the walker, the
   * candidate inspection and the reads stop between entries, and the pending call rejects with the abort reason.
   */
  signal?: AbortSignal;
  /**
   * Files of the secret-bearing deny list (docs/security.md) to let back in, as gitignore patterns relative to the
   * root (`fixtures/*.pem`). Their contents still go through the redactor. Default: none.
   */
  allowSecretFiles?: readonly string[];
}

export interface Repository {
  /** The realpath of the root. */
  readonly root: string;
  /** Lists the tree (or a sub-directory) with cheap filters only: no file is opened. */
  list(subPath?: string): Promise<RepoListing>;
  /** Opens listed paths just enough to tell readable text files: size cap, symlink confinement, NUL sniff. */
  inspect(paths: readonly string[]): Promise<InspectResult>;
  /** Lists, ranks every path, and inspects the best ones until the candidate budget is filled. */
  survey(subPath?: string, options?: SurveyOptions): Promise<RepoSurvey>;
  /**
   * The file behind an untrusted path if it is listed under `subPath` (shown in a prompt or not) and passes
   * inspection; otherwise `undefined`. Judged for that one path as the tree is now (no listing is made).
   */
  resolveCandidate(relPath: string, subPath?: string): Promise<RepoFile | undefined>;
  read(paths: readonly string[], budget: ReadBudget): Promise<ReadResult>;
  /**
   * {@link resolveCandidate} and {@link read} in one pass over the paths a model picked, each file opened once: see
   * {@link CandidateReader}.
   */
  candidateReader(budget: ReadBudget, subPath?: string, expected?: number): CandidateReader;
  /** Whether an untrusted relative path names a secret-bearing file (the deny list minus `allowSecretFiles`). */
  isSecretFile(relPath: string): boolean;
  /**
   * `compute()`'s value for `key`, kept by the survey cache while a watch on the tree sees no change (as a survey
   * is); without a cache it is computed every time. For deterministic, read-only work on the tree (repo/explore).
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * Reads picked paths one by one within one budget. `take(path)` gives the file exactly when `resolveCandidate(path,
 * subPath)` would (listed now, confined, a regular file within the size cap, no known binary extension, no NUL in
 * its first bytes), and reads what it shows from the same open handle: the inspection's sniff is the start of the
 * read. A path taken before is given again without reading. `result()` is what `read(taken paths, budget)` returns.
 * Progress (`reading`, done of at least `expected`, the number of paths the caller means to take) is reported as
 * `read()` reports it.
 */
export interface CandidateReader {
  take(relPath: string): Promise<RepoFile | undefined>;
  result(): ReadResult;
}

/** A fresh survey, and the listing it was made from (whose directories must be watched for it to be kept). */
export interface SurveyRun {
  survey: RepoSurvey;
  listing: RepoListing;
}

export interface SurveyCache {
  /**
   * The survey kept for (`root`, `variant`, `key`) if nothing under the root changed since it was made; otherwise
   * `compute()`'s, kept when the tree was fully watched throughout. `variant` names the options a survey depends on.
   * A survey of the same key already under way, begun while the tree was fully watched and with no event since, is
   * joined rather than made twice. `whenWatched`: first wait for the root's watch to be complete.
   */
  survey(
    root: string,
    variant: string,
    key: string,
    compute: () => Promise<SurveyRun>,
    options?: { whenWatched?: boolean },
  ): Promise<RepoSurvey>;
  /**
   * The value kept for (`root`, `variant`, `key`) while nothing under the root changed since it was computed;
   * otherwise `compute()`'s, kept when the root's watch (started by a survey) was complete throughout. Bounded.
   */
  keep<T>(root: string, variant: string, key: string, compute: () => Promise<T>): Promise<T>;
  /** How many roots are held (with their watches). */
  readonly roots: number;
  /** Drops everything and closes every watch. */
  close(): void;
}
