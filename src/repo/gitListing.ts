/**
 * The fast path: when the root holds `.git`, git lists the tree.
 *
 * - `git ls-files -co --exclude-standard -z`: tracked files plus untracked files that are not ignored — the
 *   listing itself;
 * - `git ls-files -oi --exclude-standard --directory -z`: the ignored untracked entries (an ignored directory
 *   once, as `dir/`), so that the `ignored` class is reported as the walker reports it. It costs a second walk of
 *   the tree, so it is a separate step: `list()` runs it alongside the listing; the survey starts it once the
 *   listing is in, and ranks and inspects while git walks.
 *
 * On top of git's answer come the parts git does not know: the `extra` layer (`.ignore` files, the root's
 * `.summarizeignore`), binary extensions, the root `.git` as `vcs_dir`, and the trees git shows as one entry
 * (an untracked nested repository `dir/`, a submodule) which the walker lists, as it would without git.
 * Any failure of the listing — git missing, not a work tree, a timeout, too much output — returns the reason
 * instead, and the caller falls back to the walker.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { hasBinaryExtension } from './classify.js';
import type { GitRunResult } from './gitProcess.js';
import { runGit, splitNul } from './gitProcess.js';
import type { IgnoreRules } from './ignoreRules.js';
import { DOT_IGNORE_FILE, readIgnoreFile } from './ignoreRules.js';
import { VCS_DIR_NAME } from './paths.js';
import type { SkipCollector } from './skips.js';
import type { WalkerReason } from './types.js';
import { scopeOf, walk } from './walker.js';

export interface GitListContext {
  root: string;
  command: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface ListSink {
  paths: string[];
  skips: SkipCollector;
  onProgress?: (files: number) => void;
}

/** git's ignored entries, folded into a skip collector; `false` when git could not say (then nothing is added). */
export type IgnoredQuery = (skips: SkipCollector) => Promise<boolean>;

/** The `path = …` entries of the root's `.gitmodules`, if any. */
function submodulePaths(root: string): Set<string> {
  const text = readIgnoreFile(path.join(root, '.gitmodules'));
  const paths = new Set<string>();
  if (text === undefined) return paths;
  for (const match of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) if (match[1] !== undefined) paths.add(match[1]);
  return paths;
}

/** Drops `d/` from git's ignored list when entries below `d/` are listed too (git shows both for such a `d`). */
function collapseIgnored(entries: string[]): string[] {
  const sorted = [...entries].sort();
  return sorted.filter((entry, index) => {
    if (!entry.endsWith('/')) return true;
    const next = sorted[index + 1];
    return next === undefined || !next.startsWith(entry);
  });
}

/** The directory part of a root-relative path (`''` at the top); cheaper than `path.posix.dirname`. */
function dirOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

interface ExtraScope {
  rules: IgnoreRules;
  /** The directory (this one or above) that the layer ignores. */
  ignoredDir?: string;
}

/**
 * The `extra` layer, directory by directory below `base`, starting from the rules in force in `base` (built from
 * the root down, as the walker builds them). A `.ignore` file below `base` counts when git lists it: one that
 * git's rules ignore does not count, in either path.
 */
class ExtraRules {
  private readonly cache = new Map<string, ExtraScope>();
  private lastDir: string | undefined;
  private lastScope: ExtraScope | undefined;

  constructor(
    private readonly root: string,
    private readonly base: string,
    baseRules: IgnoreRules,
    private readonly ignoreFiles: ReadonlySet<string>,
  ) {
    this.cache.set(base, { rules: baseRules });
  }

  private has(dir: string): (name: string) => boolean {
    return (name) => this.ignoreFiles.has(`${dir}/${name}`);
  }

  at(dir: string): ExtraScope {
    // Paths come sorted, so most lookups repeat the previous directory.
    if (dir === this.lastDir && this.lastScope !== undefined) return this.lastScope;
    let result = this.cache.get(dir);
    // `base` itself, and anything not below it (git prints `base/` for a nested repository), gets the base scope.
    if (result === undefined && this.base !== '' && !dir.startsWith(`${this.base}/`))
      result = this.cache.get(this.base);
    if (result === undefined) {
      // Every other path lies below `base`, whose scope is cached: the recursion ends there.
      const parent = this.at(dirOf(dir));
      if (parent.ignoredDir !== undefined) result = parent;
      else if (parent.rules.extra.ignores(dir, true)) result = { rules: parent.rules, ignoredDir: dir };
      else if (!this.ignoreFiles.has(`${dir}/${DOT_IGNORE_FILE}`)) result = { rules: parent.rules };
      else result = { rules: parent.rules.forDirectory(this.root, dir, this.has(dir), false) };
      this.cache.set(dir, result);
    }
    this.lastDir = dir;
    this.lastScope = result;
    return result;
  }

  /** Whether no `.ignore` or `.summarizeignore` rule can apply below `base` (then nothing needs checking). */
  get isEmpty(): boolean {
    const below = [...this.ignoreFiles].some((file) => dirOf(file) !== this.base);
    return !below && this.at(this.base).rules.extra.isEmpty;
  }
}

/** Reports what the `extra` layer ignores; each ignored directory counts once. */
class ExtraFilter {
  private readonly ignoredDirs = new Set<string>();
  private readonly active: boolean;
  /** The directory of the previous path, with its trailing slash, and its scope: most paths share it. */
  private previousPrefix = '\0';
  private previousScope: ExtraScope | undefined;

  constructor(private readonly extra: ExtraRules) {
    this.active = !extra.isEmpty;
  }

  private scopeOf(relative: string): ExtraScope {
    const slash = relative.lastIndexOf('/');
    if (
      this.previousScope !== undefined &&
      slash === this.previousPrefix.length - 1 &&
      relative.startsWith(this.previousPrefix)
    ) {
      return this.previousScope;
    }
    const dir = slash < 0 ? '' : relative.slice(0, slash);
    this.previousPrefix = slash < 0 ? '' : `${dir}/`;
    this.previousScope = this.extra.at(dir);
    return this.previousScope;
  }

  /** Whether `relative` (or a directory above it) is ignored by the layer; if so, it is reported to `skips`. */
  ignores(relative: string, isDirectory: boolean, skips: SkipCollector): boolean {
    if (!this.active) return false;
    const scope = this.scopeOf(relative);
    let dir = scope.ignoredDir;
    if (dir === undefined && isDirectory && scope.rules.extra.ignores(relative, true)) dir = relative;
    if (dir !== undefined) {
      if (!this.ignoredDirs.has(dir)) skips.add('ignored', `${dir}/`);
      this.ignoredDirs.add(dir);
      return true;
    }
    if (!isDirectory && scope.rules.extra.ignores(relative, false)) {
      skips.add('ignored', relative);
      return true;
    }
    return false;
  }

  /** Whether a directory above `relative` is ignored by the layer (then git's entry is covered by that one). */
  covers(relative: string, skips: SkipCollector): boolean {
    if (!this.active) return false;
    const dir = this.extra.at(dirOf(relative)).ignoredDir;
    if (dir === undefined) return false;
    if (!this.ignoredDirs.has(dir)) skips.add('ignored', `${dir}/`);
    this.ignoredDirs.add(dir);
    return true;
  }
}

/**
 * Lists `base` (POSIX, relative to the root; `''` for the root), whose rules are `baseRules`, with git into `sink`,
 * or returns why it could not (`sink` is only touched on success). On success it returns the query for git's
 * ignored entries; with `startIgnoredNow` that query's git process starts together with the listing's.
 */
export async function listWithGit(
  ctx: GitListContext,
  base: string,
  baseRules: IgnoreRules,
  sink: ListSink,
  startIgnoredNow = false,
): Promise<WalkerReason | IgnoredQuery> {
  let vcs;
  try {
    vcs = lstatSync(path.join(ctx.root, VCS_DIR_NAME));
  } catch {
    return 'not_a_git_work_tree';
  }
  const pathspec = base === '' ? [] : ['--', `:(literal)${base}`];
  const run = (args: string[]): Promise<GitRunResult> =>
    runGit([...args, ...pathspec], {
      command: ctx.command,
      cwd: ctx.root,
      timeoutMs: ctx.timeoutMs,
      maxBytes: ctx.maxOutputBytes,
      ...(ctx.signal !== undefined && { signal: ctx.signal }),
    });
  let ignoredRun: Promise<GitRunResult> | undefined;
  const startIgnored = (): Promise<GitRunResult> =>
    (ignoredRun ??= run(['ls-files', '-oi', '--exclude-standard', '--directory', '-z']));
  if (startIgnoredNow) void startIgnored();
  const listed = await run(['ls-files', '-co', '--exclude-standard', '-z']);
  if (!listed.ok) return listed.reason;

  const text = listed.stdout.toString('utf8');
  const entries = splitNul(text);
  // The `.ignore` files git lists shape the filter, so they are found first (one search when there are none).
  const ignoreFiles = new Set<string>();
  if (text.startsWith(`${DOT_IGNORE_FILE}\0`) || text.includes(`/${DOT_IGNORE_FILE}\0`)) {
    for (const entry of entries) {
      if (entry === DOT_IGNORE_FILE || entry.endsWith(`/${DOT_IGNORE_FILE}`)) ignoreFiles.add(entry);
    }
  }
  const submodules = submodulePaths(ctx.root);
  const filter = new ExtraFilter(new ExtraRules(ctx.root, base, baseRules, ignoreFiles));
  const expand: string[] = [];
  if (base === '') sink.skips.add('vcs_dir', vcs.isDirectory() ? `${VCS_DIR_NAME}/` : VCS_DIR_NAME);
  for (const entry of entries) {
    if (entry.endsWith('/')) expand.push(entry.slice(0, -1));
    else if (submodules.size > 0 && submodules.has(entry)) expand.push(entry);
    else if (filter.ignores(entry, false, sink.skips)) continue;
    else if (hasBinaryExtension(entry)) sink.skips.add('binary', entry);
    else sink.paths.push(entry);
  }
  sink.onProgress?.(sink.paths.length);
  for (const dir of expand) {
    if (filter.ignores(dir, true, sink.skips)) continue;
    const scope = scopeOf(ctx.root, dir);
    if (scope?.kind === 'directory') await walk(ctx.root, dir, scope.rules, sink);
    else if (scope?.kind === 'skip') sink.skips.add(scope.reason, scope.example);
    else if (scope?.kind === 'file') sink.paths.push(dir);
  }

  return async (skips) => {
    const ignored = await startIgnored();
    if (!ignored.ok) return false;
    for (const entry of collapseIgnored(splitNul(ignored.stdout.toString('utf8')))) {
      const relative = entry.endsWith('/') ? entry.slice(0, -1) : entry;
      if (!filter.covers(relative, skips)) skips.add('ignored', entry);
    }
    return true;
  };
}
