/**
 * The deterministic repository reader.
 *
 * Listing walks real directories only (bounded concurrency, results sorted) and classifies every entry once:
 * `.git` anywhere -> `vcs_dir` (not entered); ignored by `.git/info/exclude`, `.gitignore` or `.ignore` at any
 * level -> `ignored` (an ignored directory counts once, as `dir/`, and is not entered); then a regular file (or
 * a symlink whose realpath is a regular file inside the root, listed under the link's path) is `too_large`,
 * `binary` by extension, `binary` by a NUL byte in its first bytes (unless it starts with a UTF-16 BOM), or
 * listed. Symlinks leaving the root -> `symlink_outside_root`; symlinks to directories inside the root (not
 * entered, so no cycles), sockets, FIFOs and devices -> `special_file` (never opened); anything failing with an
 * fs error -> `unreadable`. `resolveCandidate` classifies one path through the same code, so it agrees with
 * `list`. Sub-paths are resolved to their real directory, so `base` is canonical.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelInputError } from '../errors.js';
import type { ScanContext } from './classify.js';
import { classifyEntry } from './classify.js';
import { createLimiter } from './limit.js';
import { absoluteOf, normalizeRelPath, resolveSubPath } from './paths.js';
import { readFiles } from './reader.js';
import { scopeOf, walk } from './walker.js';
import type { ReadBudget, ReadResult, RepoFile, RepoListing, Repository, RepositoryOptions } from './types.js';

/** Files larger than this are skipped as `too_large` unless `maxFileBytes` says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 1_048_576;

/** How many leading bytes are searched for a NUL byte unless `sniffBytes` says otherwise. */
export const DEFAULT_SNIFF_BYTES = 8000;

/** Filesystem operations in flight at once during a walk. */
const FS_CONCURRENCY = 32;

function positiveOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new ModelInputError('config_invalid', `${name} must be a non-negative finite number`);
  }
  return Math.floor(value);
}

class FsRepository implements Repository {
  constructor(private readonly ctx: ScanContext) {}

  get root(): string {
    return this.ctx.root;
  }

  async list(subPath?: string): Promise<RepoListing> {
    const base = await resolveSubPath(this.ctx.root, subPath);
    const scope = await scopeOf(this.ctx, base);
    if (scope === undefined) {
      throw new ModelInputError('path_outside_root', `Path ${JSON.stringify(subPath)} is no longer a directory`);
    }
    if (scope.kind === 'file')
      throw new ModelInputError('path_outside_root', `Path ${JSON.stringify(subPath)} is a file`);
    if (scope.kind === 'skip') {
      return { base, files: [], skipped: [{ reason: scope.reason, count: 1, examples: [scope.example] }] };
    }
    const { files, skips } = await walk(this.ctx, base, scope.rules);
    return { base, files, skipped: skips.toArray() };
  }

  async resolveCandidate(relPath: string, subPath?: string): Promise<RepoFile | undefined> {
    const base = await resolveSubPath(this.ctx.root, subPath);
    const candidate = normalizeRelPath(relPath);
    if (candidate === undefined || candidate === '') return undefined;
    if (base !== '' && !candidate.startsWith(`${base}/`)) return undefined;
    const parent = path.posix.dirname(candidate);
    const scope = await scopeOf(this.ctx, parent === '.' ? '' : parent);
    if (scope?.kind !== 'directory') return undefined;
    let stats;
    try {
      stats = await lstat(absoluteOf(this.ctx.root, candidate));
    } catch {
      return undefined;
    }
    const verdict = await classifyEntry(this.ctx, candidate, stats, scope.rules);
    return verdict.kind === 'file' ? verdict.file : undefined;
  }

  read(paths: readonly string[], budget: ReadBudget): Promise<ReadResult> {
    return readFiles(this.ctx.root, paths, budget);
  }
}

/**
 * Opens a repository for deterministic listing and reading. The root must be an existing directory; its realpath
 * becomes {@link Repository.root}. Throws `root_invalid` otherwise.
 */
export async function openRepository(root: string, options: RepositoryOptions = {}): Promise<Repository> {
  const invalid = (): ModelInputError<'root_invalid'> =>
    new ModelInputError('root_invalid', `Repository root ${JSON.stringify(root)} is not an existing directory`);
  let real: string;
  try {
    real = await realpath(root);
    if (!(await stat(real)).isDirectory()) throw invalid();
  } catch {
    throw invalid();
  }
  return new FsRepository({
    root: real,
    maxFileBytes: positiveOption(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'maxFileBytes'),
    sniffBytes: positiveOption(options.sniffBytes, DEFAULT_SNIFF_BYTES, 'sniffBytes'),
    limit: createLimiter(FS_CONCURRENCY),
  });
}
