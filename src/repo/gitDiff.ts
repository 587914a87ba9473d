/**
 * A diff of the served repository, for review: the working tree (staged and unstaged) against `HEAD`, or
 * `base..head`. git runs through the process's git pool (gitProcess.ts: bounded in time and output, isolated from
 * the caller's `GIT_*` environment, killed on abort), inside the root, with external diff drivers and text
 * conversion off. Refs are checked before use — a ref is a name or an id, never an option or a path — and must
 * name commits; the diff is then asked for by commit id, never by the caller's text.
 *
 * What comes back is safe to show a model: a secret-bearing file's diff is withheld (its name and counts stay),
 * a file the repository's own ignore files exclude is left out, and every patch has its secrets redacted — the
 * added ones also reported, with their new line numbers, so a review can say so.
 */
import { stat } from 'node:fs/promises';

import { runGit, splitNul } from './gitProcess.js';
import { IgnoreRules } from './ignoreRules.js';
import { absoluteOf, normalizeRelPath } from './paths.js';
import { formatRedactionMarker, scanText } from './secrets/index.js';

export interface DiffRequest {
  /** A commit (name or id); default: `HEAD` against the working tree. */
  base?: string;
  /** A commit; default: the working tree (staged and unstaged). Needs `base`. */
  head?: string;
  /** Only these paths (relative to the root). */
  paths?: readonly string[];
  signal?: AbortSignal;
}

export interface DiffFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  binary: boolean;
  added: number;
  removed: number;
  /** A binary file's size after the change, in bytes, where known. */
  size?: number;
  /** The unified diff of this file, secrets redacted; `''` for a withheld (secret-bearing) or binary file. */
  patch: string;
  /** A secret-bearing file (docs/security.md): its diff is never shown. */
  withheld: boolean;
  /** Secrets on added lines: new line number and kind (each redacted in `patch`). */
  secrets: Array<{ line: number; kind: string }>;
}

export type DiffOutcome =
  | { ok: true; base: string; head: string; files: DiffFile[]; ignored: string[] }
  | { ok: false; error: 'bad_ref' | 'bad_path' | 'not_a_repository' | 'git_failed'; message: string };

export interface DiffOptions {
  root: string;
  command: string;
  timeoutMs: number;
  isSecretFile: (path: string) => boolean;
}

/** Output of one diff at most (a larger one is refused, as git_failed). */
export const MAX_DIFF_BYTES = 64 * 1024 * 1024;
/** git's id of the empty tree: the base of a repository without commits. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** What a ref may look like: a branch, a tag, an id, `HEAD~2`, `main^`, `@{1}` — never an option, NUL or `..`. */
const REF_SHAPE = /^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/@{}~^-]{1,200}$/;

export function isRefShape(ref: string): boolean {
  return REF_SHAPE.test(ref) && !ref.startsWith('/') && !ref.includes('\0');
}

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--full-index'];

export async function readDiff(request: DiffRequest, options: DiffOptions): Promise<DiffOutcome> {
  const git = (args: string[], maxBytes = 1024 * 1024) =>
    runGit(['-c', 'core.quotePath=false', ...args], {
      command: options.command,
      cwd: options.root,
      timeoutMs: options.timeoutMs,
      maxBytes,
      ...(request.signal !== undefined && { signal: request.signal }),
    });
  const top = await git(['rev-parse', '--is-inside-work-tree']);
  if (!top.ok) return { ok: false, error: 'not_a_repository', message: 'the served root is not a git work tree' };
  const commit = async (ref: string): Promise<string | undefined> => {
    if (!isRefShape(ref)) return undefined;
    const found = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    return found.ok ? found.stdout.toString('utf8').trim() : undefined;
  };
  if (request.head !== undefined && request.base === undefined) {
    return { ok: false, error: 'bad_ref', message: '`head` needs a `base`' };
  }
  const base = request.base === undefined ? ((await commit('HEAD')) ?? EMPTY_TREE) : await commit(request.base);
  if (base === undefined) return badRef('base', request.base ?? '');
  const head = request.head === undefined ? undefined : await commit(request.head);
  if (request.head !== undefined && head === undefined) return badRef('head', request.head);
  const pathspec: string[] = [];
  for (const raw of request.paths ?? []) {
    const path = normalizeRelPath(raw);
    if (path === undefined) return { ok: false, error: 'bad_path', message: 'a path is outside the served root' };
    pathspec.push(path === '' ? ':(literal).' : `:(literal)${path}`);
  }
  const range = head === undefined ? [base] : [base, head];
  const [stats, patch] = await Promise.all([
    git(['diff', ...DIFF_FLAGS, '--numstat', '-z', ...range, '--', ...pathspec], MAX_DIFF_BYTES),
    git(['diff', ...DIFF_FLAGS, '-U3', ...range, '--', ...pathspec], MAX_DIFF_BYTES),
  ]);
  if (!stats.ok || !patch.ok) {
    const reason = !stats.ok ? stats.reason : !patch.ok ? patch.reason : 'git_failed';
    return { ok: false, error: 'git_failed', message: `git diff did not complete (${reason})` };
  }
  const files: DiffFile[] = [];
  const ignored: string[] = [];
  const chunks = splitChunks(patch.stdout.toString('utf8'));
  const entries = parseNumstat(stats.stdout.toString('utf8'));
  for (const [index, entry] of entries.entries()) {
    if (isIgnored(options.root, entry.path)) {
      ignored.push(entry.path);
      continue;
    }
    const chunk = chunks[index] ?? '';
    files.push(await diffFile(entry, chunk, head === undefined, git, options));
  }
  return { ok: true, base: request.base ?? 'HEAD', head: request.head ?? 'working tree', files, ignored };
}

function badRef(which: 'base' | 'head', ref: string): DiffOutcome {
  const shown = isRefShape(ref) ? `'${ref}'` : 'the value given';
  return { ok: false, error: 'bad_ref', message: `${which}: ${shown} is not a commit of the served repository` };
}

interface NumstatEntry {
  path: string;
  added: number;
  removed: number;
  binary: boolean;
}

/** `added\tremoved\tpath\0` entries (`-\t-\t` for a binary file). */
function parseNumstat(text: string): NumstatEntry[] {
  return splitNul(text).map((entry) => {
    const [added = '0', removed = '0', ...rest] = entry.split('\t');
    const binary = added === '-';
    return { path: rest.join('\t'), added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary };
  });
}

/** The patch cut at each `diff --git` line: one chunk per file, in numstat's order. */
function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  let at = text.indexOf('diff --git ');
  while (at !== -1) {
    const next = text.indexOf('\ndiff --git ', at + 1);
    chunks.push(text.slice(at, next === -1 ? text.length : next + 1));
    at = next === -1 ? -1 : next + 1;
  }
  return chunks;
}

/** Whether the repository's own ignore files (`.ignore`, `.summarizeignore`) leave a tracked path out. */
function isIgnored(root: string, path: string): boolean {
  let rules = IgnoreRules.forRoot(root);
  const segments = path.split('/');
  let current = '';
  for (const [index, segment] of segments.entries()) {
    current = current === '' ? segment : `${current}/${segment}`;
    const last = index === segments.length - 1;
    if (rules.extra.ignores(current, !last)) return true;
    if (!last) rules = rules.forDirectory(root, current);
  }
  return false;
}

type Git = (args: string[], maxBytes?: number) => ReturnType<typeof runGit>;

async function diffFile(
  entry: NumstatEntry,
  chunk: string,
  workingTree: boolean,
  git: Git,
  options: DiffOptions,
): Promise<DiffFile> {
  const status = /^new file mode /m.test(chunk) ? 'added' : /^deleted file mode /m.test(chunk) ? 'deleted' : 'modified';
  const file: DiffFile = { ...entry, status, patch: '', withheld: false, secrets: [] };
  if (options.isSecretFile(entry.path)) return { ...file, withheld: true };
  if (entry.binary) {
    const size = status === 'deleted' ? undefined : await binarySize(chunk, entry.path, workingTree, git, options.root);
    return { ...file, ...(size !== undefined && { size }) };
  }
  const found = await scanText(chunk, entry.path);
  if (found.length === 0) return { ...file, patch: chunk };
  const lines = newLineNumbers(chunk);
  const secrets = found.flatMap((finding) => {
    const line = lines[lineAt(lines, finding.start)];
    return line?.added === true ? [{ line: line.number, kind: finding.kind }] : [];
  });
  return { ...file, patch: redact(chunk, found), secrets };
}

/** Each finding replaced by its marker (overlapping findings: the first one wins). */
function redact(text: string, found: ReadonlyArray<{ start: number; end: number; kind: string }>): string {
  let out = '';
  let at = 0;
  for (const finding of [...found].sort((a, b) => a.start - b.start)) {
    if (finding.start < at) continue;
    out += text.slice(at, finding.start) + formatRedactionMarker(finding.kind);
    at = finding.end;
  }
  return out + text.slice(at);
}

async function binarySize(chunk: string, path: string, workingTree: boolean, git: Git, root: string) {
  const id = /^index [0-9a-f]+\.\.([0-9a-f]+)/m.exec(chunk)?.[1];
  if (id !== undefined && !/^0+$/.test(id)) {
    const sized = await git(['cat-file', '-s', id]);
    if (sized.ok) return Number(sized.stdout.toString('utf8').trim());
  }
  if (!workingTree) return undefined;
  return stat(absoluteOf(root, path)).then(
    (stats) => stats.size,
    () => undefined,
  );
}

interface PatchLine {
  /** Offset of the line in the patch. */
  start: number;
  /** Its line number in the new file (added and context lines). */
  number: number;
  added: boolean;
}

/** Every line of a file's patch with its offset, and for hunk lines their number in the new file. */
function newLineNumbers(chunk: string): PatchLine[] {
  const lines: PatchLine[] = [];
  let next = 0;
  let inHunk = false;
  let start = 0;
  for (const line of chunk.split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk !== null) {
      next = Number(hunk[1]);
      inHunk = true;
      lines.push({ start, number: 0, added: false });
    } else if (inHunk && line.startsWith('+')) {
      lines.push({ start, number: next++, added: true });
    } else if (inHunk && line.startsWith(' ')) {
      lines.push({ start, number: next++, added: false });
    } else {
      lines.push({ start, number: 0, added: false });
    }
    start += line.length + 1;
  }
  return lines;
}

/** The index of the line holding `offset`. */
function lineAt(lines: readonly PatchLine[], offset: number): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid]?.start ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
