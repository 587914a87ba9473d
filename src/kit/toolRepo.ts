/**
 * The served root as a model tool sees it: the project's confined reader (paths stay under the root, ignore rules
 * hold, secret-bearing files are never read, binary and oversized files are skipped), opened at its first use.
 * Texts read here are redacted again on their way to any model (redact.ts), whatever the tool does with them.
 */
import type { DiffOutcome, DiffRequest } from '../repo/gitDiff.js';
import type { ReadBudget, ReadResult, RepoListing, Repository } from '../repo/index.js';
import type { RepositoryOptions, RepoSurvey, SurveyOptions } from '../repo/index.js';

/** Bytes of one file `readText` shows by default. */
export const DEFAULT_READ_TEXT_BYTES = 16 * 1024;

export interface ToolRepo {
  /** Lists the tree (or a sub-directory) with cheap filters only: no file is opened. */
  list(subPath?: string): Promise<RepoListing>;
  /** Lists, ranks and inspects: the best candidates of the tree (or a sub-directory). */
  survey(subPath?: string, options?: SurveyOptions): Promise<RepoSurvey>;
  /** Reads listed, readable files within a byte budget. */
  read(paths: readonly string[], budget: ReadBudget): Promise<ReadResult>;
  /**
   * One file's text (cut at `maxBytes`, default {@link DEFAULT_READ_TEXT_BYTES}), or undefined when the path is
   * not a readable listed file under the root (outside it, ignored, secret-bearing, binary, too large, missing).
   */
  readText(path: string, maxBytes?: number): Promise<string | undefined>;
  /** Whether a relative path names a secret-bearing file (never read). */
  isSecretFile(path: string): Promise<boolean>;
  /**
   * A diff of the served repository: the working tree (staged and unstaged) against `HEAD` by default, or
   * `base..head`. Refs must name commits (never an option or a path); secret-bearing files' diffs are withheld,
   * files the repository's ignore files exclude are left out, secrets are redacted and those added reported.
   */
  diff(request?: DiffRequest): Promise<DiffOutcome>;
}

export function createToolRepo(root: string, options: RepositoryOptions): ToolRepo {
  let opened: Promise<Repository> | undefined;
  // The reader loads at first use: a server answers discovery and tools/list without it.
  const repo = (): Promise<Repository> =>
    (opened ??= import('../repo/index.js').then(({ openRepository }) => openRepository(root, options)));
  return {
    list: async (subPath) => (await repo()).list(subPath),
    survey: async (subPath, survey) => (await repo()).survey(subPath, survey),
    read: async (paths, budget) => (await repo()).read(paths, budget),
    async readText(path, maxBytes = DEFAULT_READ_TEXT_BYTES) {
      const reader = await repo();
      if (reader.isSecretFile(path)) return undefined;
      const file = await reader.resolveCandidate(path);
      if (file === undefined) return undefined;
      const read = await reader.read([file.path], { perFileBytes: maxBytes, totalBytes: maxBytes, fileTokens: false });
      return read.files[0]?.content;
    },
    isSecretFile: async (path) => (await repo()).isSecretFile(path),
    async diff(request = {}) {
      const reader = await repo();
      const [{ readDiff }, { DEFAULT_GIT_TIMEOUT_MS }] = await Promise.all([
        import('../repo/gitDiff.js'),
        import('../repo/index.js'),
      ]);
      return readDiff(request, {
        root: reader.root,
        command: options.gitCommand ?? 'git',
        timeoutMs: options.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
        isSecretFile: (path) => reader.isSecretFile(path),
      });
    },
  };
}
