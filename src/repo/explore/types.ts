/** The read-only explore tools over a repository: their calls, results and limits (no model knowledge here). */

/** One call of an explore tool, its arguments validated and normalized. */
export type ExploreCall =
  | { tool: 'list_directory'; path: string }
  | { tool: 'read_file'; path: string; startLine: number; maxLines: number }
  | { tool: 'search'; pattern: string; regex: boolean; path: string };

export type ExploreToolName = ExploreCall['tool'];

/** Why a call returned no content: each is answered with an `isError` tool result that says what to do. */
export type ExploreErrorCode =
  | 'outside_root'
  | 'symlink_outside_root'
  | 'secret_file'
  | 'not_found'
  | 'not_a_directory'
  | 'not_a_file'
  | 'ignored'
  | 'binary'
  | 'too_large'
  | 'unreadable'
  | 'bad_pattern'
  | 'budget_spent';

/** What a read_file call showed (for the structured result: which files the model looked at). */
export interface ExploredFile {
  path: string;
  size: number;
  /** Bytes of the file's text shown by this call. */
  bytesShown: number;
  truncated: boolean;
  encoding: 'utf8' | 'utf16le' | 'utf16be' | 'replaced';
}

export interface ExploreResult {
  /** The tool result text given to the model (before redaction), at most the call's byte cap. */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** Set when the call failed: `text` then says why and what to do. */
  error?: ExploreErrorCode;
  /** read_file only: the file shown. */
  file?: ExploredFile;
  /**
   * Secrets replaced in `text`, per kind: read_file and search redact each file whole before a window or a line is
   * taken from it (a window never starts or ends inside a secret).
   */
  redacted?: Array<[kind: string, count: number]>;
}

/** Per-call limits of the tools. */
export interface ExploreToolLimits {
  /** list_directory: entries shown. */
  maxEntries: number;
  /** read_file: lines one call may ask for. */
  maxLines: number;
  /** search: matching lines shown. */
  maxMatches: number;
  /** search: files scanned. */
  maxScanFiles: number;
  /** search: bytes scanned in all (each file at most `maxScanFileBytes`). */
  maxScanBytes: number;
  maxScanFileBytes: number;
  /** search: each matching line is cut to this many characters. */
  maxMatchChars: number;
}

export const DEFAULT_EXPLORE_TOOL_LIMITS: Readonly<ExploreToolLimits> = Object.freeze({
  maxEntries: 200,
  maxLines: 400,
  maxMatches: 40,
  maxScanFiles: 1000,
  maxScanBytes: 1024 * 1024,
  maxScanFileBytes: 256 * 1024,
  maxMatchChars: 160,
});

/** Argument bounds: every tool argument fits these, so the compact call log stays small (flows/…/explore). */
export const EXPLORE_ARGUMENT_LIMITS = Object.freeze({
  /** UTF-8 bytes of a `path` argument as a JSON string (quotes excluded, escapes counted). */
  pathBytes: 160,
  /** UTF-8 bytes of a search `pattern` as a JSON string (quotes excluded, escapes counted). */
  patternBytes: 80,
  /** Largest `startLine`. */
  startLine: 1_000_000,
});
