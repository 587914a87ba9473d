/**
 * The recency signal of the ranking: files touched by the latest commits, newest first. Bulk commits (an import,
 * a mass reformat) say nothing about where work happens, so commits touching many files are passed over.
 */
import { runGit, splitNul } from './gitProcess.js';

export interface HistoryOptions {
  root: string;
  command: string;
  timeoutMs: number;
  /** How many recent commits (merges excluded) to read. */
  commits: number;
  signal?: AbortSignal;
}

/** Commits touching more files than this are not a recency signal. */
export const MAX_FILES_PER_COMMIT = 100;
/** At most this many recently changed paths are kept. */
export const MAX_RECENT_PATHS = 500;
const COMMIT_MARK = '\u0001';

/**
 * Paths (POSIX, relative to the root, which is the top of the work tree) changed by the last `commits` commits
 * below `base`, or `undefined` when there is no usable history (no git, no commits, a timeout).
 */
export async function recentlyChanged(options: HistoryOptions, base: string): Promise<Set<string> | undefined> {
  if (options.commits <= 0) return undefined;
  const result = await runGit(
    [
      'log',
      `--max-count=${Math.floor(options.commits)}`,
      '--no-merges',
      '--no-renames',
      '--diff-filter=AM',
      '--format=%x01',
      '--name-only',
      '-z',
      ...(base === '' ? [] : ['--', `:(literal)${base}`]),
    ],
    {
      command: options.command,
      cwd: options.root,
      timeoutMs: options.timeoutMs,
      maxBytes: 16 * 1024 * 1024,
      ...(options.signal !== undefined && { signal: options.signal }),
    },
  );
  if (!result.ok) return undefined;
  const recent = new Set<string>();
  let commit: string[] = [];
  const flush = (): void => {
    if (commit.length <= MAX_FILES_PER_COMMIT)
      for (const file of commit) if (recent.size < MAX_RECENT_PATHS) recent.add(file);
    commit = [];
  };
  for (const raw of splitNul(result.stdout.toString('utf8'))) {
    // Each commit starts with the mark; its first path follows a newline.
    const entry = raw.startsWith('\n') ? raw.slice(1) : raw;
    if (entry.startsWith(COMMIT_MARK)) flush();
    else if (entry !== '') commit.push(entry);
  }
  flush();
  return recent;
}
