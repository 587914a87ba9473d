/**
 * Listing one directory of the repository: `git ls-files` when the root is a git work tree, the walker
 * otherwise (or when git fails); both give the same paths for the same tree. Cheap filters only — nothing is
 * opened but directories and ignore files.
 */
import { listWithGit } from './gitListing.js';
import type { IgnoreRules } from './ignoreRules.js';
import { SkipCollector } from './skips.js';
import type { ListingSource, RepoListing, RepoProgress, WalkerReason } from './types.js';
import { walk } from './walker.js';

export interface ListOptions {
  root: string;
  useGit: boolean;
  gitCommand: string;
  gitTimeoutMs: number;
  /** git output larger than this falls back to the walker. */
  maxGitOutputBytes: number;
  onProgress?: (event: RepoProgress) => void;
}

/** Lists below `base`, a directory the walk would enter, whose rules (its own ignore files included) are `rules`. */
export async function listDirectory(options: ListOptions, base: string, rules: IgnoreRules): Promise<RepoListing> {
  const report = (files: number): void => options.onProgress?.({ phase: 'listing', files });
  let reason: WalkerReason = 'disabled';
  if (options.useGit) {
    const sink = { paths: [] as string[], skips: new SkipCollector(), onProgress: report };
    const failure = await listWithGit(
      {
        root: options.root,
        command: options.gitCommand,
        timeoutMs: options.gitTimeoutMs,
        maxOutputBytes: options.maxGitOutputBytes,
      },
      base,
      sink,
    );
    if (failure === undefined) return finish(options, base, sink.paths, sink.skips, { kind: 'git' });
    reason = failure;
  }
  const sink = { paths: [] as string[], skips: new SkipCollector(), onProgress: report };
  await walk(options.root, base, rules, sink);
  return finish(options, base, sink.paths, sink.skips, { kind: 'walker', reason });
}

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
    // Unmerged entries appear once per stage in git's output.
    if (index === 0 || paths[index] !== paths[unique - 1]) paths[unique++] = paths[index] as string;
  }
  paths.length = unique;
  options.onProgress?.({ phase: 'listed', files: paths.length, source });
  return { base, paths, skipped: skips.toArray(), source };
}
