import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type { Ignore, PatternParams } from 'ignore';
import { absoluteOf, VCS_DIR_NAME } from './paths.js';

/** git's own per-directory ignore file. */
export const GITIGNORE_FILE = '.gitignore';
/** The per-directory ignore file of ripgrep and friends: excludes more, never re-includes what git excludes. */
export const DOT_IGNORE_FILE = '.ignore';
/** The project-level ignore file of this tool, read at the repository root only. */
export const SUMMARIZE_IGNORE_FILE = '.summarizeignore';
/** Per-directory ignore files, in the order they are read. */
export const IGNORE_FILE_NAMES = [GITIGNORE_FILE, DOT_IGNORE_FILE] as const;

/** Ignore files larger than this are not read (git has a similar cap). */
const MAX_IGNORE_FILE_BYTES = 4 * 1024 * 1024;

/** Characters that have a meaning in gitignore patterns and must be escaped in a literal directory prefix. */
const PATTERN_SPECIALS = /[\\*?[\]!# ]/g;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

function escapeLiteral(relativeDir: string): string {
  return relativeDir.replace(PATTERN_SPECIALS, (char) => `\\${char}`);
}

/**
 * Rewrites one line of the ignore file in `dir` so that it matches paths relative to the root, keeping gitignore
 * semantics: a pattern with a slash (other than a trailing one) is anchored to `dir`; one without matches at any
 * depth below `dir`. Returns `undefined` for blank lines and comments.
 */
export function rebasePattern(line: string, dir: string): string | undefined {
  if (/^ *$/.test(line) || line.startsWith('#')) return undefined;
  if (dir === '') return line;
  const negated = line.startsWith('!');
  const body = negated ? line.slice(1) : line;
  const trimmed = body.replace(/ +$/, '');
  const core = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  if (core === '' || core === '/') return undefined;
  const prefix = `${negated ? '!' : ''}${escapeLiteral(dir)}/`;
  return core.includes('/') ? prefix + body.replace(/^\//, '') : `${prefix}**/${body}`;
}

/**
 * Reads a small regular file synchronously (never a FIFO, never through a final symlink, as git does for in-tree
 * ignore files), or returns `undefined`. Ignore files are small and few, so one blocking read is cheaper than a
 * round trip through the thread pool.
 */
export function readIgnoreFile(absolute: string): string | undefined {
  // Most ignore files asked about do not exist: a failed open costs an exception, several times the cost of this
  // check, which never follows a final symbolic link (the open refuses one anyway). (A file that appears right after
  // it is read by the next call, as if this one had come a moment earlier.)
  // ENOTDIR: a parent is a file, as `.git` is in a linked work tree or a submodule (`.git/info/exclude`).
  try {
    if (lstatSync(absolute, { throwIfNoEntry: false }) === undefined) return undefined;
  } catch {
    return undefined;
  }
  let fd: number;
  try {
    fd = openSync(absolute, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_IGNORE_FILE_BYTES) return undefined;
    const buffer = Buffer.alloc(stats.size);
    let offset = 0;
    while (offset < buffer.length) {
      const read = readSync(fd, buffer, offset, buffer.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    const text = buffer.subarray(0, offset).toString('utf8');
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Patterns as objects, so that `ignore` never splits one again (a directory name may hold a newline). */
export function patternsOf(text: string | undefined, dir: string): PatternParams[] {
  if (text === undefined) return [];
  const patterns: PatternParams[] = [];
  for (const line of text.split(/\r?\n/)) {
    const pattern = rebasePattern(line, dir);
    if (pattern !== undefined) patterns.push({ pattern });
  }
  return patterns;
}

/**
 * A necessary condition for a pattern to match: its last segment, as a regular expression over a name, or
 * `'any'` when that cannot be told simply (`**`, character classes, escapes). Negations match nothing here.
 */
function nameCondition(pattern: string): string | 'any' | undefined {
  if (pattern.startsWith('!')) return undefined;
  // git drops unescaped trailing spaces; a pattern ending in an escaped space is left to the matcher.
  if (/\\ +$/.test(pattern)) return 'any';
  let body = pattern.replace(/ +$/, '');
  if (body.endsWith('/')) body = body.slice(0, -1);
  const segment = body.slice(body.lastIndexOf('/') + 1);
  if (segment === '' || segment.includes('**') || /[\\[\]]/.test(segment)) return 'any';
  return segment
    .replace(/[.+^${}()|]/g, (char) => `\\${char}`)
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
}

/**
 * One chain of ignore files, rebased onto the root so that a single matcher (the `ignore` package) applies the
 * last matching rule, as git does. Matching is case-sensitive. An empty layer matches nothing and costs nothing.
 *
 * Every listed path goes through here, so a cheap pre-test comes first: a name that no (non-negated) pattern's
 * last segment can match is not ignored, and the matcher is not asked. Callers only ask about entries whose
 * parent directories are known not to be ignored (the walk does not enter ignored directories), which is what
 * makes the pre-test exact.
 */
export class RuleLayer {
  static readonly EMPTY = new RuleLayer(undefined, []);

  private readonly names: RegExp | 'any' | undefined;

  private constructor(
    private readonly matcher: Ignore | undefined,
    private readonly conditions: readonly string[],
  ) {
    if (conditions.includes('any')) this.names = 'any';
    // Sticky, tested from just after the last slash: no string is cut per path.
    else if (conditions.length > 0) this.names = new RegExp(`(?:${conditions.join('|')})$`, 'y');
  }

  get isEmpty(): boolean {
    return this.matcher === undefined;
  }

  /** This layer plus `patterns` (which win over the existing rules). */
  with(patterns: readonly PatternParams[]): RuleLayer {
    if (patterns.length === 0) return this;
    const next = ignore({ ignorecase: false, allowRelativePaths: true });
    if (this.matcher !== undefined) next.add(this.matcher);
    const conditions = new Set(this.conditions);
    for (const { pattern } of patterns) {
      const condition = nameCondition(pattern);
      if (condition !== undefined) conditions.add(condition);
    }
    return new RuleLayer(next.add([...patterns]), [...conditions]);
  }

  /**
   * Whether a path (POSIX, relative to the root, below directories that are not ignored) is ignored; directories
   * match directory-only patterns.
   */
  ignores(relative: string, isDirectory: boolean): boolean {
    if (this.matcher === undefined || this.names === undefined) return false;
    if (this.names !== 'any') {
      this.names.lastIndex = relative.lastIndexOf('/') + 1;
      if (!this.names.test(relative)) return false;
    }
    return this.matcher.ignores(isDirectory ? `${relative}/` : relative);
  }
}

/** Tells whether a directory holds a file of that name, when the caller already knows its entries. */
export type HasEntry = (name: string) => boolean;

/**
 * The ignore rules in force inside one directory, in two layers:
 * - `git`: `.git/info/exclude`, then each ancestor's `.gitignore`, outermost first — exactly what
 *   `git ls-files --exclude-standard` applies (minus the user's global excludes file, which is not part of the
 *   repository);
 * - `extra`: the root's `.ignore` and `.summarizeignore`, then each deeper `.ignore`.
 * A path is ignored when either layer ignores it; negations work within a layer, so `.ignore` can exclude more
 * than git but never re-include what git excludes. That keeps the `git ls-files` listing and the walker equal.
 */
export class IgnoreRules {
  private constructor(
    readonly git: RuleLayer,
    readonly extra: RuleLayer,
  ) {}

  /** The rules of the root directory. */
  static forRoot(root: string, has?: HasEntry): IgnoreRules {
    const exclude = readIgnoreFile(path.join(root, VCS_DIR_NAME, 'info', 'exclude'));
    const extraRoot = patternsOf(readIgnoreFile(absoluteOf(root, SUMMARIZE_IGNORE_FILE)), '');
    return new IgnoreRules(RuleLayer.EMPTY.with(patternsOf(exclude, '')), RuleLayer.EMPTY)
      .forDirectory(root, '', has)
      .withExtra(extraRoot);
  }

  private withExtra(patterns: readonly PatternParams[]): IgnoreRules {
    return patterns.length === 0 ? this : new IgnoreRules(this.git, this.extra.with(patterns));
  }

  /**
   * The rules in force inside `dir` (POSIX, relative to the root): these plus `dir`'s own ignore files. `has`,
   * when given, says which names the directory holds, so that absent files are not even opened. A `.ignore` that
   * git's rules ignore does not count (git does not list it, so the fast path never sees it). With `gitLayer`
   * false (the fast path, where git applies that layer) only `.ignore` is read, and `has` must only admit the
   * ones git listed.
   */
  forDirectory(root: string, dir: string, has?: HasEntry, gitLayer = true): IgnoreRules {
    const nameIn = (name: string): string => (dir === '' ? name : `${dir}/${name}`);
    const read = (name: string): string | undefined =>
      has === undefined || has(name) ? readIgnoreFile(absoluteOf(root, nameIn(name))) : undefined;
    const git = gitLayer ? this.git.with(patternsOf(read(GITIGNORE_FILE), dir)) : this.git;
    const counts = !gitLayer || !git.ignores(nameIn(DOT_IGNORE_FILE), false);
    const extraPatterns = counts ? patternsOf(read(DOT_IGNORE_FILE), dir) : [];
    if (git === this.git && extraPatterns.length === 0) return this;
    return new IgnoreRules(git, this.extra.with(extraPatterns));
  }

  /** Which layer ignores a path (POSIX, relative to the root), if any. */
  ignoredBy(relative: string, isDirectory: boolean): 'git' | 'extra' | undefined {
    if (this.git.ignores(relative, isDirectory)) return 'git';
    if (this.extra.ignores(relative, isDirectory)) return 'extra';
    return undefined;
  }

  ignores(relative: string, isDirectory: boolean): boolean {
    return this.ignoredBy(relative, isDirectory) !== undefined;
  }
}
