import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import type { Ignore, PatternParams } from 'ignore';
import type { Limiter } from './limit.js';
import { absoluteOf, VCS_DIR_NAME } from './paths.js';

/** Per-directory ignore files, read in this order (later files win within one directory). */
export const IGNORE_FILE_NAMES = ['.gitignore', '.ignore'] as const;

/** Ignore files larger than this are not read (git has a similar cap). */
const MAX_IGNORE_FILE_BYTES = 4 * 1024 * 1024;

/** Characters that have a meaning in gitignore patterns and must be escaped in a literal directory prefix. */
const PATTERN_SPECIALS = /[\\*?[\]!# ]/g;

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

/** Reads a small regular file (never a FIFO or symlink), or returns `undefined`. */
async function readSmallTextFile(absolute: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_IGNORE_FILE_BYTES) return undefined;
    const text = (await handle.readFile()).toString('utf8');
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function linesOf(text: string | undefined): string[] {
  return text === undefined ? [] : text.split(/\r?\n/);
}

/** Patterns as objects, so that `ignore` never splits one again (a directory name may hold a newline). */
function patternsOf(lines: readonly string[], dir: string): PatternParams[] {
  const patterns: PatternParams[] = [];
  for (const line of lines) {
    const pattern = rebasePattern(line, dir);
    if (pattern !== undefined) patterns.push({ pattern });
  }
  return patterns;
}

/**
 * The ignore rules in force inside one directory: `.git/info/exclude`, then each ancestor's `.gitignore` and
 * `.ignore`, outermost first, rebased onto the root so that a single matcher (the `ignore` package) applies the
 * last matching rule, as git does. Matching is case-sensitive.
 */
export class IgnoreRules {
  private constructor(private readonly matcher: Ignore) {}

  private static create(): Ignore {
    return ignore({ ignorecase: false, allowRelativePaths: true });
  }

  /** The rules of the root directory: `.git/info/exclude` plus the root's own ignore files. */
  static async forRoot(root: string, limit: Limiter): Promise<IgnoreRules> {
    const exclude = path.join(root, VCS_DIR_NAME, 'info', 'exclude');
    const matcher = IgnoreRules.create().add(patternsOf(linesOf(await limit(() => readSmallTextFile(exclude))), ''));
    return new IgnoreRules(matcher).forDirectory(root, '', limit);
  }

  /** The rules in force inside `dir` (POSIX, relative to the root): these plus `dir`'s own ignore files. */
  async forDirectory(root: string, dir: string, limit: Limiter): Promise<IgnoreRules> {
    const patterns: PatternParams[] = [];
    for (const name of IGNORE_FILE_NAMES) {
      const text = await limit(() => readSmallTextFile(absoluteOf(root, dir === '' ? name : `${dir}/${name}`)));
      patterns.push(...patternsOf(linesOf(text), dir));
    }
    if (patterns.length === 0) return this;
    return new IgnoreRules(IgnoreRules.create().add(this.matcher).add(patterns));
  }

  /** Whether a path (POSIX, relative to the root) is ignored; directories match directory-only patterns. */
  ignores(relative: string, isDirectory: boolean): boolean {
    return this.matcher.ignores(isDirectory ? `${relative}/` : relative);
  }
}
