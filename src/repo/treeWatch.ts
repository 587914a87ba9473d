/**
 * Knowing cheaply that a tree has not changed: one `fs.watch` (inotify on Linux) per directory a listing can
 * depend on, and a generation number that every event moves on. A cached survey is used only when the generation
 * is the one it was made at and the watch was complete before it was made (see surveyCache.ts).
 *
 * Why a watch: the cheaper-looking checks are either proportional to the tree or blind to some change. git's own
 * "is the index current" must `lstat` every tracked file (unless `core.fsmonitor` runs a program, which we switch
 * off); directory mtimes catch added, removed and renamed entries but not a changed file, and still cost one `stat`
 * per directory; re-inspecting the candidates misses files outside them. An inotify watch per directory reports
 * every change that a survey depends on, at no cost per call.
 *
 * What is watched: every directory the walker would enter (not ignored, not `.git`, not a symlink) — an event on a
 * directory reports entries created, deleted, renamed, written or changed in attributes, so a file added, removed
 * or changed anywhere in the listed tree, and every ignore file, is seen — plus the git directory (`index`, `HEAD`,
 * `COMMIT_EDITMSG`…), its `info/` (`exclude`) and `logs/` (the history behind the recency signal). Directories of
 * listed files that lie in ignored directories (tracked files git lists anyway) are added when a listing shows them.
 *
 * Keeping the watch complete: a directory is watched before it is read, so anything created in it later is an
 * event. An event naming a new directory watches that subtree; one naming an ignore file (the rules changed, so
 * other directories may now be listed) walks the whole tree again, watching what is missing; an event naming a
 * watched directory drops that watch and those below it (it was removed or replaced) before looking again. While
 * such a walk is in flight the watch is not complete and nothing is cached.
 *
 * The git directory is found as git finds it (gitDirectory.ts): `.git` itself, or the directory a `.git` file names
 * (a linked worktree, a submodule's checkout, a separate git directory), with `info/` in the common directory.
 *
 * The watch gives up — and the caller stops caching for that root — when the tree has more directories than its
 * share of the cap, when the system refuses a watch (inotify limits), when `.git` is a file that names no git
 * directory, or when a `.git` file changes (it may name another git directory).
 */
import type { FSWatcher } from 'node:fs';
import { lstatSync, watch } from 'node:fs';
import path from 'node:path';
import { findGitDirectories } from './gitDirectory.js';
import { DOT_IGNORE_FILE, GITIGNORE_FILE, IgnoreRules, SUMMARIZE_IGNORE_FILE } from './ignoreRules.js';
import { absoluteOf, VCS_DIR_NAME } from './paths.js';
import { SkipCollector } from './skips.js';
import { childOf, scopeOf, walk } from './walker.js';

const IGNORE_FILES: ReadonlySet<string> = new Set([GITIGNORE_FILE, DOT_IGNORE_FILE, SUMMARIZE_IGNORE_FILE]);
/**
 * Entries of the git directory worth a watch: the index and HEAD live in it, the history in `logs/`; `info/`
 * (`exclude`) is the common directory's (they differ in a linked worktree).
 */
const GIT_DIRS = ['', 'info', 'logs'];
/** Keys of git-directory watches cannot clash with tree directories (no tree path starts with a NUL). */
const GIT_KEY = '\0git/';

/** Yields without keeping the process alive: a one-shot command may exit while a watch is still being set up. */
const pause = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0).unref();
  });

export interface DirectoryBudget {
  /** Takes one directory from the shared budget; false when it is spent. */
  take(): boolean;
  give(count: number): void;
}

export class TreeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private generationValue = 0;
  private walks = 0;
  private armed = false;
  private arming: Promise<void> | undefined;
  private brokenValue = false;
  private closed = false;
  /** `.git` is a file naming the git directory: an event on it may point the watch elsewhere. */
  private dotGitIsFile = false;

  constructor(
    readonly root: string,
    private readonly budget: DirectoryBudget,
  ) {}

  /** Moves on with every event under the watched tree. */
  get generation(): number {
    return this.generationValue;
  }

  /** The watch gave up (too many directories, a refused watch, no git directory to watch). */
  get broken(): boolean {
    return this.brokenValue;
  }

  /** Every directory a listing made now could depend on is watched, and no walk adding watches is in flight. */
  get complete(): boolean {
    return this.armed && this.walks === 0 && !this.brokenValue && !this.closed;
  }

  /** Starts watching (once): the git directory first, then every directory of the tree, in the background. */
  start(): void {
    if (this.armed || this.walks > 0 || this.brokenValue || this.closed) return;
    if (!this.watchGitDirectory()) return;
    this.arming = this.walkFrom('').then(() => {
      this.armed = true;
    });
  }

  /** Settles once the walk begun by {@link start} is over (at once if none was begun): whether the watch is complete. */
  async whenStarted(): Promise<boolean> {
    await this.arming;
    return this.complete;
  }

  /** Watches `dirs` (directories of listed files) not yet watched; false if any was missing. */
  cover(dirs: Iterable<string>): boolean {
    let covered = true;
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      covered = false;
      this.add(dir);
    }
    return covered;
  }

  close(): void {
    this.closed = true;
    this.closeWatchers();
  }

  private closeWatchers(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.budget.give(this.watchers.size);
    this.watchers.clear();
  }

  private watchGitDirectory(): boolean {
    let git;
    try {
      git = findGitDirectories(this.root);
    } catch {
      return this.giveUp(); // a `.git` file that names no git directory: the listing says so, nothing is kept
    }
    // Not a git work tree: the walker lists it, and the tree's own watches cover everything.
    if (git === undefined) return true;
    this.dotGitIsFile = git.gitDir !== path.join(this.root, VCS_DIR_NAME);
    for (const dir of GIT_DIRS) {
      const absolute = dir === '' ? git.gitDir : path.join(dir === 'info' ? git.commonDir : git.gitDir, dir);
      // `info/exclude` shapes the rules: any change there re-walks the tree.
      const onChange = dir === 'info' ? () => this.rewalk() : undefined;
      if (!this.watchAt(`${GIT_KEY}${dir}`, absolute, onChange) && dir === '') return this.giveUp();
    }
    return true;
  }

  private giveUp(): false {
    this.brokenValue = true;
    this.closeWatchers();
    return false;
  }

  /** Walks below `start` (a directory the walker would enter), watching each directory before reading it. */
  private async walkFrom(start: string): Promise<void> {
    const scope = scopeOf(this.root, start);
    if (scope?.kind !== 'directory') return;
    this.walks++;
    try {
      const sink = {
        paths: [] as string[],
        skips: new SkipCollector(),
        pause,
        onDirectory: (dir: string) => {
          if (!this.watchers.has(dir)) this.add(dir);
        },
      };
      await walk(this.root, start, start === '' ? IgnoreRules.forRoot(this.root) : scope.rules, sink);
    } catch {
      // The start directory went away: the event that says so has moved the generation on.
    } finally {
      this.walks--;
    }
  }

  private rewalk(): void {
    if (!this.closed && !this.brokenValue) void this.walkFrom('');
  }

  private add(dir: string): void {
    if (this.closed || this.brokenValue) return;
    this.watchAt(dir, absoluteOf(this.root, dir));
  }

  /** Adds one watch; false when the directory is gone. Gives up on a refused watch or a spent budget. */
  private watchAt(key: string, absolute: string, onChange?: () => void): boolean {
    if (!this.budget.take()) {
      this.giveUp();
      return false;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, { persistent: false }, (_event, name) => {
        this.generationValue++;
        if (onChange) onChange();
        else if (!key.startsWith(GIT_KEY)) this.changed(key, typeof name === 'string' ? name : undefined);
      });
    } catch (error) {
      this.budget.give(1);
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.giveUp();
      return false;
    }
    watcher.on('error', () => {
      this.generationValue++;
      this.drop(key);
    });
    this.watchers.set(key, watcher);
    return true;
  }

  /** Drops the watch of `dir` and of every directory below it. */
  private drop(dir: string): void {
    const below = `${dir}/`;
    for (const [key, watcher] of this.watchers) {
      if (key === dir || key.startsWith(below)) {
        watcher.close();
        this.watchers.delete(key);
        this.budget.give(1);
      }
    }
  }

  /** An event on watched directory `dir` about entry `name`. */
  private changed(dir: string, name: string | undefined): void {
    if (this.closed || this.brokenValue) return;
    if (name === undefined || IGNORE_FILES.has(name)) return this.rewalk();
    // A `.git` file rewritten may name another git directory, whose index and exclude file nobody watches.
    if (dir === '' && name === VCS_DIR_NAME && this.dotGitIsFile) return void this.giveUp();
    const child = childOf(dir, name);
    if (this.watchers.has(child)) this.drop(child);
    let isDirectory: boolean;
    try {
      isDirectory = lstatSync(absoluteOf(this.root, child)).isDirectory();
    } catch {
      return;
    }
    if (isDirectory && name !== VCS_DIR_NAME) void this.walkFrom(child);
  }
}
