/**
 * Where a work tree's git directory is, found as git finds it: `.git` at the root is the git directory itself, or a
 * file of one line `gitdir: <path>` naming it (a linked worktree made by `git worktree add`, a submodule's checkout,
 * `git init --separate-git-dir`), the path absolute or relative to the root. A linked worktree's git directory holds
 * its own index, `HEAD` and `logs/`, and a `commondir` file naming the directory it shares with the main work tree,
 * where `info/exclude` lives.
 *
 * A `.git` file that names no git directory is an error (`repo_unreadable`, with a message saying what is wrong):
 * git refuses such a tree too, and listing it without its ignore rules would list what the repository ignores.
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { ModelInputError } from '../errors.js';
import { VCS_DIR_NAME } from './paths.js';
import { readSmallFile } from './smallFile.js';

export interface GitDirectories {
  /** The work tree's own git directory: its index, `HEAD` and `logs/`. */
  gitDir: string;
  /** The directory all worktrees of the repository share (`info/exclude`, refs); `gitDir` unless a linked worktree. */
  commonDir: string;
}

/** git reads a `.git` file or a `commondir` file whole; anything longer than this is not one. */
const MAX_POINTER_BYTES = 64 * 1024;

/** A pointer file's text (see readSmallFile), or undefined. */
function readPointer(absolute: string): string | undefined {
  return readSmallFile(absolute, MAX_POINTER_BYTES);
}

function isDirectory(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

function unreadable(problem: string): ModelInputError<'repo_unreadable'> {
  return new ModelInputError(
    'repo_unreadable',
    `The repository's ${VCS_DIR_NAME} ${problem} (git expects a directory, or a file of one line 'gitdir: <path>')`,
  );
}

/** The directory a `.git` file at `root` names; throws `repo_unreadable` when it names none. */
function gitDirOfFile(root: string, file: string): string {
  const text = readPointer(file);
  if (text === undefined) return unreadableFile('is a file that cannot be read');
  const match = /^gitdir: *(.+?)[ \t\r]*(?:\n|$)/.exec(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (match?.[1] === undefined) return unreadableFile('is a file that does not name a git directory');
  const gitDir = path.resolve(root, match[1]);
  if (!isDirectory(gitDir)) return unreadableFile('file names a git directory that does not exist');
  return gitDir;
}

function unreadableFile(problem: string): never {
  throw unreadable(problem);
}

/** The common directory named by `gitDir/commondir` (relative to `gitDir`), or `gitDir` itself. */
function commonDirOf(gitDir: string): string {
  const text = readPointer(path.join(gitDir, 'commondir'));
  const named = text?.split('\n', 1)[0]?.trim();
  if (named === undefined || named === '') return gitDir;
  const common = path.resolve(gitDir, named);
  return isDirectory(common) ? common : gitDir;
}

/**
 * The git directories of the work tree at `root` (an absolute, real path), or undefined when the root holds no
 * `.git`. Throws `repo_unreadable` for a `.git` that is neither a directory nor a file naming one.
 */
export function findGitDirectories(root: string): GitDirectories | undefined {
  const dotGit = path.join(root, VCS_DIR_NAME);
  let stats;
  try {
    stats = lstatSync(dotGit, { throwIfNoEntry: false });
  } catch {
    throw unreadable('cannot be read');
  }
  if (stats === undefined) return undefined;
  let gitDir: string;
  if (stats.isDirectory() || (stats.isSymbolicLink() && isDirectory(dotGit))) gitDir = dotGit;
  else if (stats.isFile()) gitDir = gitDirOfFile(root, dotGit);
  else throw unreadable('is neither a directory nor a file');
  return { gitDir, commonDir: commonDirOf(gitDir) };
}
