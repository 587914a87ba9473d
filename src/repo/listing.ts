/**
 * Listing one directory of the repository: `git ls-files` when the root is a git work tree, the walker
 * otherwise (or when git fails); both give the same paths for the same tree. Cheap filters only — nothing is
 * opened but directories and ignore files.
 */
import { escapeControls, hasControls } from '../protocol/sanitize.js';
import type { IgnoredQuery } from './gitListing.js';
import { listWithGit } from './gitListing.js';
import type { IgnoreRules } from './ignoreRules.js';
import type { SecretFileFilter } from './secrets/secretFiles.js';
import { SkipCollector } from './skips.js';
import type { ListingSource, RepoListing, RepoProgress, SkippedClass, WalkerReason } from './types.js';
import { walk } from './walker.js';

export interface ListOptions {
  root: string;
  useGit: boolean;
  gitCommand: string;
  gitTimeoutMs: number;
  /** git output larger than this falls back to the walker. */
  maxGitOutputBytes: number;
  /** Secret-bearing files by name: left out of every listing as `secret_file`. */
  secretFiles: SecretFileFilter;
  onProgress?: (event: RepoProgress) => void;
  /** Kills git and stops the walker; an aborted listing rejects with the abort reason. */
  signal?: AbortSignal;
}

export interface DirectoryListing {
  listing: RepoListing;
  /**
   * With `deferIgnored` on the git path: the entries git's own rules ignore, still to be asked for (a second walk
   * of the tree by git), as skip classes to merge; `undefined` when git could not say.
   */
  ignored?: () => Promise<SkippedClass[] | undefined>;
}

/**
 * Lists below `base`, a directory the walk would enter, whose rules (its own ignore files included) are `rules`.
 * `deferIgnored` leaves git's ignored entries for later (see {@link DirectoryListing.ignored}); otherwise they are
 * asked for alongside the listing and the result is complete.
 */
export async function listDirectory(
  options: ListOptions,
  base: string,
  rules: IgnoreRules,
  deferIgnored = false,
): Promise<DirectoryListing> {
  const report = (files: number): void => options.onProgress?.({ phase: 'listing', files });
  let reason: WalkerReason = 'disabled';
  if (options.useGit) {
    const sink = { paths: [] as string[], skips: new SkipCollector(), onProgress: report };
    const context = {
      root: options.root,
      command: options.gitCommand,
      timeoutMs: options.gitTimeoutMs,
      maxOutputBytes: options.maxGitOutputBytes,
      ...(options.signal !== undefined && { signal: options.signal }),
    };
    const result = await listWithGit(context, base, rules, sink, !deferIgnored);
    if (typeof result === 'function') {
      const query: IgnoredQuery = result;
      if (!deferIgnored) await query(sink.skips);
      const listing = finish(options, base, sink.paths, sink.skips, { kind: 'git' });
      if (!deferIgnored) return { listing };
      return {
        listing,
        ignored: async () => {
          const skips = new SkipCollector();
          return (await query(skips)) ? skips.toArray() : undefined;
        },
      };
    }
    reason = result;
  }
  // A git run killed by the abort is no reason to walk the tree instead.
  options.signal?.throwIfAborted();
  const sink = {
    paths: [] as string[],
    skips: new SkipCollector(),
    onProgress: report,
    ...(options.signal !== undefined && { signal: options.signal }),
  };
  await walk(options.root, base, rules, sink);
  return { listing: finish(options, base, sink.paths, sink.skips, { kind: 'walker', reason }) };
}

/** Examples of unsafe names are shown escaped and at most this long. */
const MAX_EXAMPLE_CHARS = 200;

function finish(
  options: ListOptions,
  base: string,
  paths: string[],
  skips: SkipCollector,
  source: ListingSource,
): RepoListing {
  // Default sort order is UTF-16 code-unit order; git's output is nearly sorted already, which sort() likes.
  paths.sort();
  let unique = 0;
  for (let index = 0; index < paths.length; index++) {
    const path = paths[index] as string;
    // Unmerged entries appear once per stage in git's output.
    if (index > 0 && path === paths[index - 1]) continue;
    // A name with a control, separator or format character (newline, tab, ESC, bidi override) could forge the
    // structure of a prompt or a log line: it is never listed, so never shown, picked or read.
    if (hasControls(path)) {
      skips.add('unsafe_name', escapeControls(path, MAX_EXAMPLE_CHARS));
      continue;
    }
    // One place for both listing paths: a secret-bearing file is never a candidate, never shown, never read.
    if (options.secretFiles.isSecret(path)) skips.add('secret_file', path);
    else paths[unique++] = path;
  }
  paths.length = unique;
  options.onProgress?.({ phase: 'listed', files: paths.length, source });
  return { base, paths, skipped: skips.toArray(), source };
}
