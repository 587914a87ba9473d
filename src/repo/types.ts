/** Public types of the deterministic repository reader. */

/** A listed file: a POSIX path relative to the repository root (no leading `./`) and its size in bytes. */
export interface RepoFile {
  path: string;
  size: number;
}

/** Why an entry was left out of a listing or a read. */
export type SkipReason =
  'ignored' | 'binary' | 'too_large' | 'symlink_outside_root' | 'special_file' | 'unreadable' | 'vcs_dir';

/** One class of skipped entries: how many, and at most five examples (sorted). */
export interface SkippedClass {
  reason: SkipReason;
  count: number;
  examples: string[];
}

export interface RepoListing {
  /** `''` for the root, else the validated sub-path (normalized, relative to the root). */
  base: string;
  /** Sorted by path in UTF-16 code-unit order. */
  files: RepoFile[];
  /** Only non-zero classes, sorted by reason. */
  skipped: SkippedClass[];
}

export interface ReadBudget {
  /** At most this many bytes of each file are shown. */
  perFileBytes: number;
  /** At most this many bytes are shown across all files of one read. */
  totalBytes: number;
}

export interface ReadFileResult {
  path: string;
  size: number;
  content: string;
  truncated: boolean;
  bytesShown: number;
  encoding: 'utf8' | 'utf16le' | 'utf16be' | 'replaced';
}

export interface ReadResult {
  files: ReadFileResult[];
  skipped: SkippedClass[];
  totalBytesShown: number;
}

export interface RepositoryOptions {
  /** Files larger than this are listed as skipped `too_large`. Default 1 MiB. */
  maxFileBytes?: number;
  /** How many leading bytes are searched for a NUL byte to tell binary files. Default 8000. */
  sniffBytes?: number;
}

export interface Repository {
  /** The realpath of the root. */
  readonly root: string;
  list(subPath?: string): Promise<RepoListing>;
  resolveCandidate(relPath: string, subPath?: string): Promise<RepoFile | undefined>;
  read(paths: readonly string[], budget: ReadBudget): Promise<ReadResult>;
}
