/**
 * The explore tools over one repository: `list_directory`, `read_file` (a line window) and `search` (a fixed
 * string or an RE2 expression, over the files of the listing). Read-only and deterministic: the same call on the
 * same tree gives the same text, which is what lets the tool loop rebuild its conversation every round from a
 * log of calls instead of carrying file contents.
 *
 * Every call goes through the pick flow's guards: a path is normalized (absolute paths and `..` escapes are
 * refused), must lie inside the directory being summarized, is judged against the listing (ignore rules, `.git`,
 * binary extensions, the secret-file deny list) and, to be read, passes inspection (size cap, NUL sniff, symlink
 * confinement) and the reader's own re-check at open. A failure is a result with an `error` code and a text that
 * says what to do; nothing outside the root and no secret-bearing file is ever opened. Each result is cut to the
 * byte cap the caller gives. Redaction of secrets inside files is the caller's (flows/summarizeRepo/redaction.ts).
 */
import { realpath } from 'node:fs/promises';

import { escapeControls } from '../../protocol/sanitize.js';
import { absoluteOf, isInside, normalizeRelPath } from '../paths.js';
import { redactLines, scanWhole } from '../secrets/index.js';
import type { RepoListing, Repository, SkipReason } from '../types.js';
import { bytesOf, failure, fitLines, quoted } from './results.js';
import { searchFiles } from './search.js';
import {
  DEFAULT_EXPLORE_TOOL_LIMITS,
  type ExploreCall,
  type ExploreErrorCode,
  type ExploreResult,
  type ExploreToolLimits,
} from './types.js';

export interface Explorer {
  /** Runs one call; the result text is at most `maxBytes` UTF-8 bytes. */
  run(call: ExploreCall, maxBytes: number): Promise<ExploreResult>;
  /** How many paths the listing of the summarized directory holds. */
  listed(): Promise<number>;
}

export interface ExplorerOptions {
  /** The directory being summarized (normalized, relative to the root; `''` for the root). */
  base?: string;
  limits?: Partial<ExploreToolLimits>;
}

const SKIP_ERRORS: Partial<Record<SkipReason, [ExploreErrorCode, string]>> = {
  too_large: ['too_large', 'is larger than the size cap: read another file'],
  binary: ['binary', 'is a binary file: only text files can be read'],
  symlink_outside_root: ['symlink_outside_root', 'is a symlink that leads outside the repository root: never read'],
  secret_file: ['secret_file', 'is a secret-bearing file (keys, credentials, .env): never read'],
  vcs_dir: ['outside_root', 'is inside .git: never read'],
  special_file: ['not_a_file', 'is not a regular file'],
};

/** The kinds and counts of the findings the given lines touch (a finding over several lines counted once). */
function kindsOf(findings: readonly { kind: string }[], touched: readonly number[][]): Array<[string, number]> {
  const seen = new Set<number>();
  const kinds = new Map<string, number>();
  for (const line of touched) {
    for (const index of line) {
      if (seen.has(index)) continue;
      seen.add(index);
      const kind = findings[index]!.kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  }
  return [...kinds];
}

export function createExplorer(repo: Repository, options: ExplorerOptions = {}): Explorer {
  const base = options.base ?? '';
  const limits = { ...DEFAULT_EXPLORE_TOOL_LIMITS, ...options.limits };
  // The listing and each call's result are kept with the survey cache while the tree is unchanged (repo.memo), so a
  // round that runs the logged calls again costs what its new calls cost.
  let listing: Promise<RepoListing> | undefined;
  const paths = async (): Promise<string[]> =>
    (await (listing ??= repo.memo(`explore:listing\0${base}`, () => repo.list(base === '' ? undefined : base)))).paths;
  const within = (path: string): boolean => base === '' || path === base || path.startsWith(`${base}/`);

  /** The normalized path, or the failure for a path that is absolute, escapes, or lies outside the base. */
  const confine = (input: string): string | ExploreResult => {
    const normal = normalizeRelPath(input);
    if (normal === undefined) {
      return failure(
        'outside_root',
        `Path ${quoted(input)} is absolute or leaves the repository root: use a path relative to the root, e.g. "src".`,
      );
    }
    const path = normal === '' ? base : normal;
    if (!within(path)) {
      return failure(
        'outside_root',
        `Path ${quoted(input)} is outside ${quoted(base)}, the directory being summarized.`,
      );
    }
    return path;
  };

  /** Whether a path's realpath leaves the root (a symlinked directory), without opening anything. */
  const escapes = async (path: string): Promise<boolean> => {
    try {
      return !isInside(repo.root, await realpath(absoluteOf(repo.root, path)));
    } catch {
      return false;
    }
  };

  async function listDirectory(input: string, maxBytes: number): Promise<ExploreResult> {
    const dir = confine(input);
    if (typeof dir !== 'string') return dir;
    const all = await paths();
    const prefix = dir === '' ? '' : `${dir}/`;
    const dirs = new Map<string, number>();
    const files: string[] = [];
    let total = 0;
    for (const path of all) {
      if (!path.startsWith(prefix)) continue;
      total++;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) files.push(rest);
      else dirs.set(rest.slice(0, slash), (dirs.get(rest.slice(0, slash)) ?? 0) + 1);
    }
    if (total === 0) {
      if (await escapes(dir)) {
        return failure('symlink_outside_root', `${quoted(dir)} is a symlink that leads outside the repository root.`);
      }
      if (all.includes(dir)) return failure('not_a_directory', `${quoted(dir)} is a file: use read_file.`);
      if (repo.isSecretFile(dir))
        return failure('secret_file', `${quoted(dir)} is a secret-bearing path: never listed.`);
      return failure(
        'not_found',
        `No listed files under ${quoted(dir)}: it does not exist, is ignored, or holds only binary or secret-bearing files.`,
      );
    }
    const entries = [
      ...[...dirs].map(([name, count]) => `${name}/  (${count} file${count === 1 ? '' : 's'})`),
      ...files,
    ].slice(0, limits.maxEntries);
    const more = dirs.size + files.length - entries.length;
    const header = `Directory ${quoted(dir === '' ? '.' : dir)}: ${dirs.size} directories, ${files.length} files here, ${total} files below.`;
    const { text } = fitLines([header, ...entries, ...(more > 0 ? [`[… ${more} more entries]`] : [])], maxBytes);
    return { text, bytes: bytesOf(text) };
  }

  /** Why `path` (normalized, inside the base) cannot be read. */
  async function unreadable(path: string): Promise<ExploreResult> {
    const all = await paths();
    const prefix = `${path}/`;
    if (all.some((listed) => listed.startsWith(prefix))) {
      return failure('not_a_file', `${quoted(path)} is a directory: use list_directory.`);
    }
    const inspected = await repo.inspect([path]);
    const reason = inspected.skipped[0]?.reason;
    const known = reason === undefined ? undefined : SKIP_ERRORS[reason];
    if (known !== undefined) return failure(known[0], `${quoted(path)} ${known[1]}.`);
    if (inspected.files.length === 1) {
      return failure(
        'ignored',
        `${quoted(path)} is left out by the ignore rules (.gitignore, .summarizeignore): never read.`,
      );
    }
    return failure(
      'not_found',
      `${quoted(path)} is not a file in the repository listing: list a directory to find one.`,
    );
  }

  async function readFile(
    input: string,
    startLine: number,
    maxLines: number,
    maxBytes: number,
  ): Promise<ExploreResult> {
    const path = confine(input);
    if (typeof path !== 'string') return path;
    if (path === '' || path === base)
      return failure('not_a_file', `${quoted(input)} is a directory: use list_directory.`);
    if (repo.isSecretFile(path)) {
      return failure('secret_file', `${quoted(path)} is a secret-bearing file (keys, credentials, .env): never read.`);
    }
    const file = await repo.resolveCandidate(path, base === '' ? undefined : base);
    if (file === undefined) return unreadable(path);
    // Within the size cap (inspection): the whole file is read, and the window cut from it.
    const read = await repo.read([file.path], { perFileBytes: file.size, totalBytes: file.size });
    const shown = read.files[0];
    if (shown === undefined) return unreadable(path);
    // Redacted whole, then windowed: a window that starts inside a key block still shows only its marker.
    const findings = await scanWhole(shown.content, file.path);
    const { lines, touched } = redactLines(shown.content, findings);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const first = Math.min(Math.max(1, startLine), Math.max(1, lines.length));
    const window = lines.slice(first - 1, first - 1 + Math.min(maxLines, limits.maxLines));
    const header = (last: number, truncated: boolean): string =>
      `<<<FILE path="${escapeControls(file.path)}" bytes=${file.size} truncated=${truncated} ` +
      `lines=${first}-${last} of ${lines.length}>>>`;
    const closing = '<<<END FILE>>>';
    const budget = maxBytes - bytesOf(header(first + window.length, true)) - 1;
    const fitted = fitLines(window, budget, closing);
    const shownLines = window.length - fitted.cut;
    const last = first + Math.max(0, shownLines - 1);
    const truncated = first > 1 || shownLines < lines.length;
    const text = `${header(last, truncated)}\n${fitted.text}`;
    const bytesShown = bytesOf(window.slice(0, shownLines).join('\n'));
    const redacted = kindsOf(findings, touched.slice(first - 1, first - 1 + shownLines));
    return {
      text,
      bytes: bytesOf(text),
      file: { path: file.path, size: file.size, bytesShown, truncated, encoding: shown.encoding },
      ...(redacted.length > 0 && { redacted }),
    };
  }

  async function search(pattern: string, regex: boolean, input: string, maxBytes: number): Promise<ExploreResult> {
    const dir = confine(input);
    if (typeof dir !== 'string') return dir;
    const prefix = dir === '' ? '' : `${dir}/`;
    const scope = (await paths()).filter((path) => path.startsWith(prefix));
    return searchFiles({ repo, scope, dir, pattern, regex, limits, maxBytes });
  }

  const runCall = (call: ExploreCall, maxBytes: number): Promise<ExploreResult> => {
    switch (call.tool) {
      case 'list_directory':
        return listDirectory(call.path, maxBytes);
      case 'read_file':
        return readFile(call.path, call.startLine, call.maxLines, maxBytes);
      case 'search':
        return search(call.pattern, call.regex, call.path, maxBytes);
    }
  };

  return {
    async run(call, maxBytes) {
      if (maxBytes < 128) {
        return failure('budget_spent', "The exploration's byte budget is spent: answer with your summary now.");
      }
      const key = `explore:call\0${JSON.stringify([base, limits, maxBytes, call])}`;
      return repo.memo(key, () => runCall(call, maxBytes));
    },
    async listed() {
      return (await paths()).length;
    },
  };
}
