import { lstatSync, realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ModelInputError } from '../errors.js';

/** The name of the version-control directory that is never listed or read. */
export const VCS_DIR_NAME = '.git';

/** Converts an OS-relative path to POSIX separators. */
export function toPosix(relative: string): string {
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}

/**
 * Normalizes an untrusted relative path: backslashes become `/`, `./` and duplicate slashes go, `a/../b` folds
 * lexically. Returns `''` for the root and `undefined` for NUL bytes, absolute paths (`/x`, `C:\x`, `\\host`)
 * and anything that escapes upwards.
 */
export function normalizeRelPath(input: string): string | undefined {
  if (input.includes('\0')) return undefined;
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return undefined;
  const normal = path.posix.normalize(slashed === '' ? '.' : slashed).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal === '.' || normal === '' ? '' : normal;
}

/** Whether `candidate` (an absolute, real path) is `root` or lies below it. */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** Whether a POSIX relative path has a `.git` segment. */
export function hasVcsSegment(relative: string): boolean {
  return relative.split('/').includes(VCS_DIR_NAME);
}

/** The POSIX path of a real absolute path relative to the root (`''` for the root itself). */
export function relativeToRoot(root: string, real: string): string {
  return toPosix(path.relative(root, real));
}

/** Joins a POSIX relative path onto the root. */
export function absoluteOf(root: string, relative: string): string {
  return relative === '' ? root : path.join(root, ...relative.split('/'));
}

/** The message names only the sub-path as given; no `cause`, since fs errors carry absolute host paths. */
function outsideRoot(subPath: string): ModelInputError<'path_outside_root'> {
  return new ModelInputError(
    'path_outside_root',
    `Path ${JSON.stringify(subPath)} is not a directory inside the repository root`,
  );
}

/**
 * Validates a sub-path (user input) and returns its canonical POSIX path relative to the root: symlinks are
 * resolved, so the result names a real directory the walk can reach. `undefined`, `''` and `'.'` mean the root.
 * Throws `path_outside_root` naming only the sub-path as given.
 */
export async function resolveSubPath(root: string, subPath: string | undefined): Promise<string> {
  if (subPath === undefined) return '';
  const normal = normalizeRelPath(subPath);
  if (normal === undefined) throw outsideRoot(subPath);
  if (normal === '') return '';
  let real: string;
  try {
    real = await realpathUnder(root, normal);
  } catch {
    throw outsideRoot(subPath);
  }
  if (!isInside(root, real)) throw outsideRoot(subPath);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(real).isDirectory();
  } catch {
    throw outsideRoot(subPath);
  }
  if (!isDirectory) throw outsideRoot(subPath);
  return relativeToRoot(root, real);
}

/**
 * The realpath of `relative` (a normalized path under `root`). Blocking when no segment of it is a symbolic link:
 * then the call walks only the root's own directories, and two blocking calls cost far less than a round trip
 * through libuv's thread pool. Through the thread pool otherwise: a link may lead anywhere (a stalled network
 * mount included), and a walk there must never hold the event loop. Confinement is the caller's check, after.
 */
export async function realpathUnder(root: string, relative: string): Promise<string> {
  const absolute = absoluteOf(root, relative);
  return hasLinkedSegment(root, relative) ? realpath(absolute) : realpathSync.native(absolute);
}

/** Whether a segment of `relative` under `root` is a symbolic link or cannot be examined (`lstat` never follows). */
function hasLinkedSegment(root: string, relative: string): boolean {
  let at = root;
  for (const segment of relative.split('/')) {
    at = path.join(at, segment);
    const stats = lstatSync(at, { throwIfNoEntry: false });
    if (stats === undefined || stats.isSymbolicLink()) return true;
  }
  return false;
}
