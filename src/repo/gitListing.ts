/**
 * The fast path: when the root holds `.git`, git lists the tree.
 *
 * - `git ls-files -co --exclude-standard -z`: tracked files plus untracked files that are not ignored — the
 *   listing itself;
 * - `git ls-files -oi --exclude-standard --directory -z`, run alongside: the ignored untracked entries (an ignored
 *   directory once, as `dir/`), so the `ignored` class is reported as the walker reports it.
 *
 * On top of git's answer come the parts git does not know: the `extra` layer (`.ignore` files, the root's
 * `.summarizeignore`), binary extensions, the root `.git` as `vcs_dir`, and the trees git shows as one entry
 * (an untracked nested repository `dir/`, a submodule) which the walker lists, as it would without git.
 * Any failure — git missing, not a work tree, a timeout, too much output — returns the reason instead, and the
 * caller falls back to the walker.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { hasBinaryExtension } from './classify.js';
import { runGit, splitNul } from './gitProcess.js';
import { DOT_IGNORE_FILE, IgnoreRules, readIgnoreFile } from './ignoreRules.js';
import { VCS_DIR_NAME } from './paths.js';
import type { SkipCollector } from './skips.js';
import type { WalkerReason } from './types.js';
import { parentDir, scopeOf, walk } from './walker.js';

export interface GitListContext {
  root: string;
  command: string;
  timeoutMs: number;
  maxOutputBytes: number;
}

export interface ListSink {
  paths: string[];
  skips: SkipCollector;
  onProgress?: (files: number) => void;
}

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

/** Whether `dir` lies strictly above `base` (so git printed nothing from it). */
function isAncestorOf(dir: string, base: string): boolean {
  return base !== '' && dir !== base && (dir === '' || base.startsWith(`${dir}/`));
}

/**
 * The `extra` layer, directory by directory, from the `.ignore` files git reported (listed or ignored) — the
 * directories above `base` are probed, since git printed nothing from them.
 */
class ExtraRules {
  private readonly cache = new Map<string, { rules: IgnoreRules; ignoredDir?: string }>();

  constructor(
    private readonly root: string,
    private readonly base: string,
    private readonly ignoreFiles: ReadonlySet<string>,
  ) {}

  private has(dir: string): (name: string) => boolean {
    return (name) => isAncestorOf(dir, this.base) || this.ignoreFiles.has(dir === '' ? name : `${dir}/${name}`);
  }

  /** The rules in force inside `dir`, or the directory (itself or above) that the layer ignores. */
  at(dir: string): { rules: IgnoreRules; ignoredDir?: string } {
    const cached = this.cache.get(dir);
    if (cached !== undefined) return cached;
    let result: { rules: IgnoreRules; ignoredDir?: string };
    if (dir === '') {
      result = { rules: IgnoreRules.extraForRoot(this.root, this.has('')) };
    } else {
      const parent = this.at(parentDir(dir));
      if (parent.ignoredDir !== undefined) result = parent;
      else if (parent.rules.extra.ignores(dir, true)) result = { rules: parent.rules, ignoredDir: dir };
      else result = { rules: parent.rules.forDirectory(this.root, dir, this.has(dir), false) };
    }
    this.cache.set(dir, result);
    return result;
  }

  /** Whether no `.ignore` or `.summarizeignore` rule can apply below `base` (then nothing needs checking). */
  get isEmpty(): boolean {
    const scope = this.at(this.base);
    return this.ignoreFiles.size === 0 && scope.ignoredDir === undefined && scope.rules.extra.isEmpty;
  }
}

/**
 * Lists `base` (POSIX, relative to the root; `''` for the root) with git into `sink`, or returns why it could not.
 * `sink` is only touched on success.
 */
export async function listWithGit(
  ctx: GitListContext,
  base: string,
  sink: ListSink,
): Promise<WalkerReason | undefined> {
  let vcs;
  try {
    vcs = lstatSync(path.join(ctx.root, VCS_DIR_NAME));
  } catch {
    return 'not_a_git_work_tree';
  }
  const pathspec = base === '' ? [] : ['--', `:(literal)${base}`];
  const run = (args: string[]) =>
    runGit([...args, ...pathspec], {
      command: ctx.command,
      cwd: ctx.root,
      timeoutMs: ctx.timeoutMs,
      maxBytes: ctx.maxOutputBytes,
    });
  const [listed, ignored] = await Promise.all([
    run(['ls-files', '-co', '--exclude-standard', '-z']),
    run(['ls-files', '-oi', '--exclude-standard', '--directory', '-z']),
  ]);
  if (!listed.ok) return listed.reason;
  if (!ignored.ok) return ignored.reason;

  const submodules = submodulePaths(ctx.root);
  const files: string[] = [];
  const expand: string[] = [];
  for (const entry of splitNul(listed.stdout)) {
    if (entry.endsWith('/')) expand.push(entry.slice(0, -1));
    else if (submodules.has(entry)) expand.push(entry);
    else files.push(entry);
  }
  const ignoredEntries = collapseIgnored(splitNul(ignored.stdout));
  const ignoreFiles = new Set<string>();
  for (const entry of [...files, ...ignoredEntries]) {
    if (entry === DOT_IGNORE_FILE || entry.endsWith(`/${DOT_IGNORE_FILE}`)) ignoreFiles.add(entry);
  }

  const extra = new ExtraRules(ctx.root, base, ignoreFiles);
  const useExtra = !extra.isEmpty;
  const ignoredDirs = new Set<string>();
  /** Reports `relative` as ignored by the extra layer when it is; each ignored directory counts once. */
  const extraIgnores = (relative: string, isDirectory: boolean): boolean => {
    if (!useExtra) return false;
    const scope = extra.at(parentDir(relative));
    let dir = scope.ignoredDir;
    if (dir === undefined && isDirectory && scope.rules.extra.ignores(relative, true)) dir = relative;
    if (dir !== undefined) {
      if (!ignoredDirs.has(dir)) sink.skips.add('ignored', `${dir}/`);
      ignoredDirs.add(dir);
      return true;
    }
    if (!isDirectory && scope.rules.extra.ignores(relative, false)) {
      sink.skips.add('ignored', relative);
      return true;
    }
    return false;
  };

  if (base === '') sink.skips.add('vcs_dir', vcs.isDirectory() ? `${VCS_DIR_NAME}/` : VCS_DIR_NAME);
  for (const entry of ignoredEntries) {
    const isDirectory = entry.endsWith('/');
    const relative = isDirectory ? entry.slice(0, -1) : entry;
    const scope = useExtra ? extra.at(parentDir(relative)) : undefined;
    if (scope?.ignoredDir !== undefined) extraIgnores(relative, isDirectory);
    else sink.skips.add('ignored', entry);
  }
  for (const file of files) {
    if (extraIgnores(file, false)) continue;
    if (hasBinaryExtension(file)) sink.skips.add('binary', file);
    else sink.paths.push(file);
  }
  sink.onProgress?.(sink.paths.length);
  for (const dir of expand) {
    if (extraIgnores(dir, true)) continue;
    const scope = scopeOf(ctx.root, dir);
    if (scope?.kind === 'directory') await walk(ctx.root, dir, scope.rules, sink);
    else if (scope?.kind === 'skip') sink.skips.add(scope.reason, scope.example);
    else if (scope?.kind === 'file') sink.paths.push(dir);
  }
  return undefined;
}
