/**
 * The deterministic repository reader.
 *
 * `list` answers which paths belong to the repository with cheap filters only — `git ls-files` when the root is a
 * git work tree (a fast path with a timeout), the walker otherwise; both give the same paths: `.git` anywhere ->
 * `vcs_dir` (not entered); ignored by `.git/info/exclude` or `.gitignore` at any level, or by `.ignore` at any
 * level or the root's `.summarizeignore` -> `ignored` (an ignored directory counts once, as `dir/`, and is not
 * entered); a known binary extension -> `binary`; sockets, FIFOs and devices -> `special_file`; everything else
 * (regular files and symlinks) is listed. No file is opened.
 *
 * `inspect` opens listed paths just enough to tell readable text files (classify.ts): the size cap, the NUL
 * sniff, symlink confinement. `survey` ranks every listed path and inspects the best ones for the pick prompt;
 * `resolveCandidate` accepts any path a listing made now would hold (judged for that path alone, pathCheck.ts)
 * that passes inspection; `read` re-checks confinement as it reads.
 */
import { closeSync, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ModelInputError } from '../errors.js';
import type { InspectContext } from './classify.js';
import { hasBinaryExtension, inspectPath, isBinaryHead } from './classify.js';
import { computeRepoFacts, measureSizes, rebaseFacts } from './facts/index.js';
import type { RepoFacts } from './facts/index.js';
import { recentlyChanged } from './gitHistory.js';
import { runGit, splitNul } from './gitProcess.js';
import { createLimiter } from './limit.js';
import type { DirectoryListing, ListOptions } from './listing.js';
import { listDirectory } from './listing.js';
import { normalizeRelPath, realpathUnder, resolveSubPath, VCS_DIR_NAME } from './paths.js';
import { judgePath, type RulesByDirectory } from './pathCheck.js';
import { createReadCursor, openConfinedSync, readFiles, readHeadSync, readTotals, showHead } from './reader.js';
import { createSecretFileFilter, type SecretFileFilter } from './secrets/secretFiles.js';
import { SkipCollector } from './skips.js';
import type { SurveyCache, SurveyRun } from './surveyCache.js';
import { DEFAULT_CANDIDATE_BYTES, surveyListing } from './survey.js';
import type {
  CandidateReader,
  InspectResult,
  ReadBudget,
  ReadFileResult,
  ReadResult,
  RepoFile,
  RepoListing,
  Repository,
  RepositoryOptions,
  RepoSurvey,
  SurveyOptions,
} from './types.js';
import { scopeOf } from './walker.js';

/** Files larger than this are skipped as `too_large` unless `maxFileBytes` says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 1_048_576;

/** How many leading bytes are searched for a NUL byte unless `sniffBytes` says otherwise. */
export const DEFAULT_SNIFF_BYTES = 8000;

/** A git run taking longer than this is abandoned for the walker unless `gitTimeoutMs` says otherwise. */
export const DEFAULT_GIT_TIMEOUT_MS = 10_000;

/** Recent commits read for the ranking's recency signal unless `historyCommits` says otherwise. */
export const DEFAULT_HISTORY_COMMITS = 50;

/** git output above this (about 2.5 million paths) is not buffered: the walker lists instead. */
const MAX_GIT_OUTPUT_BYTES = 256 * 1024 * 1024;

/** What is read of each manifest for the facts (a manifest is rarely larger). Its text is parsed, never counted. */
const MANIFEST_BUDGET = { perFileBytes: 128 * 1024, totalBytes: 512 * 1024, fileTokens: false };

/** Filesystem operations in flight at once while inspecting. */
const FS_CONCURRENCY = 32;

function numberOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new ModelInputError('config_invalid', `${name} must be a non-negative finite number`);
  }
  return Math.floor(value);
}

class FsRepository implements Repository {
  constructor(
    private readonly ctx: InspectContext,
    private readonly listOptions: ListOptions,
    private readonly historyCommits: number,
    private readonly cache: SurveyCache | undefined,
    /** The files let back in from the deny list: what is listed and read depends on them. */
    private readonly secretVariant: string,
  ) {}

  get root(): string {
    return this.ctx.root;
  }

  async list(subPath?: string): Promise<RepoListing> {
    const base = await resolveSubPath(this.ctx.root, subPath);
    return (await this.listBase(base, subPath, false)).listing;
  }

  private async listBase(base: string, subPath: string | undefined, deferIgnored: boolean): Promise<DirectoryListing> {
    const scope = scopeOf(this.ctx.root, base);
    if (scope === undefined) {
      throw new ModelInputError('path_outside_root', `Path ${JSON.stringify(subPath)} is no longer a directory`);
    }
    if (scope.kind === 'file') {
      throw new ModelInputError('path_outside_root', `Path ${JSON.stringify(subPath)} is a file`);
    }
    if (scope.kind === 'skip') {
      const skipped = [{ reason: scope.reason, count: 1, examples: [scope.example] }];
      return { listing: { base, paths: [], skipped, source: { kind: 'walker', reason: 'disabled' } } };
    }
    return listDirectory(this.listOptions, base, scope.rules, deferIgnored);
  }

  async inspect(paths: readonly string[]): Promise<InspectResult> {
    const verdicts = await Promise.all(paths.map((path) => inspectPath(this.ctx, path)));
    const files: RepoFile[] = [];
    const skips = new SkipCollector();
    for (const verdict of verdicts) {
      if (verdict.kind === 'file') files.push(verdict.file);
      else skips.add(verdict.reason, verdict.example);
    }
    return { files, skipped: skips.toArray() };
  }

  /** Everything a survey (or a kept value) depends on besides the tree itself. */
  private get variant(): string {
    return JSON.stringify([
      this.ctx.maxFileBytes,
      this.ctx.sniffBytes,
      this.listOptions.useGit && this.listOptions.gitCommand,
      this.historyCommits,
      this.secretVariant,
    ]);
  }

  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.cache === undefined ? compute() : this.cache.keep(this.ctx.root, this.variant, key, compute);
  }

  async survey(subPath?: string, options: SurveyOptions = {}): Promise<RepoSurvey> {
    const candidateBytes = numberOption(options.candidateBytes, DEFAULT_CANDIDATE_BYTES, 'candidateBytes');
    const base = await resolveSubPath(this.ctx.root, subPath);
    const withFacts = options.facts !== false;
    if (this.cache === undefined) return (await this.surveyBase(base, subPath, candidateBytes, withFacts)).survey;
    const variant = this.variant;
    return this.cache.survey(
      this.ctx.root,
      variant,
      `${base}\0${candidateBytes}\0${withFacts}`,
      () => this.surveyBase(base, subPath, candidateBytes, withFacts),
      { whenWatched: options.whenWatched === true },
    );
  }

  private async surveyBase(
    base: string,
    subPath: string | undefined,
    candidateBytes: number,
    withFacts: boolean,
  ): Promise<SurveyRun> {
    const { listing, ignored } = await this.listBase(base, subPath, true);
    // Once the listing is in, git reads the recent history and walks the tree again for its ignored entries,
    // while the paths are scored and the candidates inspected.
    const recent = listing.source.kind === 'git' ? this.recent(listing.base) : Promise.resolve(undefined);
    const ignoredClasses = ignored?.();
    const facts = withFacts ? this.facts(listing) : undefined;
    const survey = await surveyListing({
      listing,
      recent,
      candidateBytes,
      inspect: this.ctx,
      ...(this.listOptions.onProgress !== undefined && { onProgress: this.listOptions.onProgress }),
    });
    const full = facts === undefined ? survey : { ...survey, facts: await facts };
    const more = await ignoredClasses;
    if (more === undefined || more.length === 0) return { survey: full, listing };
    const skips = new SkipCollector();
    skips.merge(full.skipped);
    skips.merge(more);
    return { survey: { ...full, skipped: skips.toArray() }, listing };
  }

  /** Whole-repository facts from the listing: a bounded size pass and a few manifests read (facts/). */
  private facts(listing: RepoListing): Promise<RepoFacts> {
    const prefix = listing.base === '' ? '' : `${listing.base}/`;
    const local = (path: string): string => path.slice(prefix.length);
    return (async () => {
      const sizes = await measureSizes(this.ctx.root, listing.paths, this.ctx.limit, local);
      const facts = await computeRepoFacts({
        prefix,
        paths: prefix === '' ? listing.paths : listing.paths.map(local),
        sizes,
        read: async (paths) => {
          const read = await readFiles(
            this.ctx.root,
            paths.map((path) => `${prefix}${path}`),
            MANIFEST_BUDGET,
            this.ctx.secretFiles,
          );
          return new Map(read.files.map((file) => [local(file.path), file.content]));
        },
      });
      return rebaseFacts(facts, prefix);
    })();
  }

  private async recent(base: string): Promise<Set<string> | undefined> {
    if (!this.listOptions.useGit || this.historyCommits === 0) return undefined;
    return recentlyChanged(
      {
        root: this.ctx.root,
        command: this.listOptions.gitCommand,
        timeoutMs: this.listOptions.gitTimeoutMs,
        commits: this.historyCommits,
        ...(this.listOptions.signal !== undefined && { signal: this.listOptions.signal }),
      },
      base,
    );
  }

  async resolveCandidate(relPath: string, subPath?: string): Promise<RepoFile | undefined> {
    const base = await resolveSubPath(this.ctx.root, subPath);
    const candidate = normalizeRelPath(relPath);
    if (candidate === undefined || candidate === '') return undefined;
    if (base !== '' && !candidate.startsWith(`${base}/`)) return undefined;
    if (!(await this.isListed(candidate))) return undefined;
    const verdict = await inspectPath(this.ctx, candidate);
    return verdict.kind === 'file' ? verdict.file : undefined;
  }

  /**
   * Whether a listing made now would hold `candidate`, judged for that one path (pathCheck.ts) instead of listing
   * the tree: a path only git's rules ignore is listed when git tracks it, as on the git fast path.
   */
  private async isListed(candidate: string, pass?: RulesByDirectory): Promise<boolean> {
    const verdict = judgePath(this.ctx.root, candidate, pass);
    if (verdict !== 'git_ignored') return verdict === 'listed';
    if (!this.listOptions.useGit || !existsSync(path.join(this.ctx.root, VCS_DIR_NAME))) return false;
    const tracked = await runGit(['ls-files', '-c', '-z', '--', `:(literal)${candidate}`], {
      command: this.listOptions.gitCommand,
      cwd: this.ctx.root,
      timeoutMs: this.listOptions.gitTimeoutMs,
      maxBytes: 64 * 1024,
    });
    return tracked.ok && splitNul(tracked.stdout.toString('utf8')).includes(candidate);
  }

  candidateReader(budget: ReadBudget, subPath?: string, expected = 0): CandidateReader {
    const ctx = this.ctx;
    const onProgress = this.listOptions.onProgress;
    const cursor = createReadCursor(budget);
    const files: ReadFileResult[] = [];
    const skips = new SkipCollector();
    const taken = new Map<string, RepoFile>();
    // Each directory's ignore files are read once for the whole pick.
    const rules: RulesByDirectory = new Map();
    let base: Promise<string> | undefined;
    const take = async (relPath: string): Promise<RepoFile | undefined> => {
      const root = await (base ??= resolveSubPath(ctx.root, subPath));
      const candidate = normalizeRelPath(relPath);
      if (candidate === undefined || candidate === '') return undefined;
      if (root !== '' && !candidate.startsWith(`${root}/`)) return undefined;
      const known = taken.get(candidate);
      if (known !== undefined) return known;
      // The inspection's cheap filters first (classify.ts), then the listing's verdict for this one path.
      if (ctx.secretFiles.isSecret(candidate) || hasBinaryExtension(candidate)) return undefined;
      if (!(await this.isListed(candidate, rules))) return undefined;
      ctx.signal?.throwIfAborted();
      // A pick's few files are opened and read in blocking calls (reader.ts: openConfinedSync), closed at once.
      let real: string;
      try {
        real = await realpathUnder(ctx.root, candidate);
      } catch {
        return undefined;
      }
      const opened = openConfinedSync(ctx.root, candidate, real, ctx.secretFiles);
      if ('reason' in opened) return undefined;
      let head: Buffer;
      try {
        if (opened.size > ctx.maxFileBytes) return undefined;
        head = readHeadSync(opened, cursor, ctx.sniffBytes);
      } catch {
        return undefined;
      } finally {
        closeSync(opened.fd);
      }
      if (isBinaryHead(head.subarray(0, ctx.sniffBytes))) return undefined;
      const file = { path: candidate, size: opened.size };
      taken.set(candidate, file);
      try {
        files.push(await showHead(opened, head, cursor));
        onProgress?.({ phase: 'reading', done: taken.size, of: Math.max(expected, taken.size) });
      } catch {
        // Passed inspection but could not be shown: picked, and reported as read() would report it.
        skips.add('unreadable', candidate);
      }
      return file;
    };
    return {
      take,
      result: () => ({
        files: [...files],
        skipped: skips.toArray(),
        ...readTotals(cursor),
      }),
    };
  }

  isSecretFile(relPath: string): boolean {
    const path = normalizeRelPath(relPath);
    return path !== undefined && path !== '' && this.ctx.secretFiles.isSecret(path);
  }

  read(paths: readonly string[], budget: ReadBudget): Promise<ReadResult> {
    const onProgress = this.listOptions.onProgress;
    return readFiles(
      this.ctx.root,
      paths,
      budget,
      this.ctx.secretFiles,
      onProgress === undefined ? undefined : (done, of) => onProgress({ phase: 'reading', done, of }),
      this.ctx.signal,
    );
  }
}

/**
 * Opens a repository for deterministic listing and reading. The root must be an existing directory; its realpath
 * becomes {@link Repository.root}. Throws `root_invalid` otherwise, and `config_invalid` for a bad option.
 */
export async function openRepository(root: string, options: RepositoryOptions = {}): Promise<Repository> {
  return openRepositoryWith(root, options, createSecretFileFilter(options.allowSecretFiles));
}

/**
 * {@link openRepository} with the secret-file filter given. For the benchmark's baseline (bench/secretScan.ts) and
 * tests only; it is not part of the public surface.
 */
export async function openRepositoryWith(
  root: string,
  options: RepositoryOptions,
  secretFiles: SecretFileFilter,
): Promise<Repository> {
  const invalid = (): ModelInputError<'root_invalid'> =>
    new ModelInputError('root_invalid', `Repository root ${JSON.stringify(root)} is not an existing directory`);
  const maxFileBytes = numberOption(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'maxFileBytes');
  const sniffBytes = numberOption(options.sniffBytes, DEFAULT_SNIFF_BYTES, 'sniffBytes');
  const gitTimeoutMs = numberOption(options.gitTimeoutMs, DEFAULT_GIT_TIMEOUT_MS, 'gitTimeoutMs');
  const historyCommits = numberOption(options.historyCommits, DEFAULT_HISTORY_COMMITS, 'historyCommits');
  let real: string;
  try {
    // Blocking calls: one `realpath` and one `stat` cost far less than two round trips through the thread pool, and
    // every round of a flow opens the repository again. `realpathSync.native` is the call `fs/promises` makes.
    real = realpathSync.native(root);
    if (!statSync(real).isDirectory()) throw invalid();
  } catch {
    throw invalid();
  }
  const onProgress = options.onProgress;
  const signal = options.signal;
  return new FsRepository(
    {
      root: real,
      maxFileBytes,
      sniffBytes,
      limit: createLimiter(FS_CONCURRENCY),
      secretFiles,
      ...(signal !== undefined && { signal }),
    },
    {
      ...(signal !== undefined && { signal }),
      root: real,
      secretFiles,
      useGit: options.listing !== 'walker',
      gitCommand: options.gitCommand ?? 'git',
      gitTimeoutMs,
      maxGitOutputBytes: MAX_GIT_OUTPUT_BYTES,
      // A progress sink must never break a listing.
      ...(onProgress !== undefined && {
        onProgress: (event) => {
          try {
            onProgress(event);
          } catch {
            // ignored
          }
        },
      }),
    },
    historyCommits,
    options.cache,
    JSON.stringify(options.allowSecretFiles ?? []),
  );
}
