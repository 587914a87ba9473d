/**
 * The documented file score: how representative a file is of its repository.
 *
 * Pure and deterministic (no I/O, no clock): the same input always gives the same score.
 * A file gets the base score of its first matching kind, then every matching adjustment.
 * Each matched rule appends a short reason, so a score can always be explained.
 *
 * Kind (first match wins):
 *   README* at the root ........................................ +100
 *   root manifest (package.json, pyproject.toml, Cargo.toml, …) .. +80
 *   README* in a subdirectory ................................... +60
 *   entry point (main.*, index.*, cli.*, app.*, server.*,
 *     __main__.py, lib.rs, mod.rs; e.g. cmd/x/main.go) ............ +50
 *   manifest in a subdirectory .................................. +30
 *   documentation (docs/**, *.md, *.mdx, *.rst, *.adoc) ......... +30
 *   source file of a programming language ....................... +20
 *   other known text (JSON, YAML, TOML, HTML, CSS, …) ............ +8
 * Adjustments:
 *   depth: -5 per directory level, at most -25
 *   test file or test directory ................................. -40
 *   fixture or snapshot ......................................... -40
 *   vendored (vendor/, node_modules/, third_party/, …) .......... -60
 *   generated or build output (dist/, build/, *.min.js, …) ...... -50
 *   lock file (package-lock.json, yarn.lock, Cargo.lock, …) ..... -80
 *   very small (< 20 bytes) -30, very large (> 200 KB) -40 (only when the size is known)
 *   changed by one of the latest commits (git history, see gitHistory.ts) .. +10
 *   modified within 30 days of `now` (only when both are known) .. +5
 *
 * A listing knows paths only; the survey ranks every path without sizes, inspects the best ones, and ranks those
 * again with their sizes.
 */

export interface RankInput {
  path: string;
  /** Bytes, when known. */
  size?: number;
  mtimeMs?: number;
}

export interface RankedFile extends RankInput {
  score: number;
  reasons: string[];
}

export interface RankContext {
  /** Milliseconds since the epoch; without it there is no recency bonus by modification time. */
  now?: number;
  /** Paths changed by the latest commits (from git history). */
  recent?: ReadonlySet<string>;
}

const MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'setup.py',
  'cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'gemfile',
  'composer.json',
  'cmakelists.txt',
  'makefile',
  'mix.exs',
  'shard.yml',
  'package.swift',
]);
const MANIFEST_EXTENSIONS = new Set(['csproj', 'fsproj', 'gemspec', 'cabal']);
const ENTRY_STEMS = new Set(['main', 'index', 'cli', 'app', 'server']);
const ENTRY_FILES = new Set(['__main__.py', 'lib.rs', 'mod.rs']);
const DOC_DIRS = new Set(['docs', 'doc']);
const DOC_EXTENSIONS = new Set(['md', 'mdx', 'rst', 'adoc']);
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e']);
const FIXTURE_DIRS = new Set(['fixtures', '__fixtures__', 'testdata', '__snapshots__', '__mocks__', 'mocks']);
const VENDOR_DIRS = new Set(['vendor', 'node_modules', 'third_party', 'third-party', 'bower_components', '.venv']);
const GENERATED_DIRS = new Set(['dist', 'build', 'out', 'target', 'generated', '__generated__', 'coverage']);
const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'cargo.lock',
  'poetry.lock',
  'pipfile.lock',
  'uv.lock',
  'gemfile.lock',
  'composer.lock',
  'go.sum',
]);

const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  py: 'Python',
  rs: 'Rust',
  go: 'Go',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  scala: 'Scala',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  fs: 'F#',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  cxx: 'C++',
  hpp: 'C++',
  m: 'Objective-C',
  swift: 'Swift',
  dart: 'Dart',
  lua: 'Lua',
  r: 'R',
  jl: 'Julia',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  hs: 'Haskell',
  cr: 'Crystal',
  ml: 'OCaml',
  clj: 'Clojure',
  sh: 'Shell',
  bash: 'Shell',
  zsh: 'Shell',
  ps1: 'PowerShell',
  pl: 'Perl',
  vue: 'Vue',
  svelte: 'Svelte',
  zig: 'Zig',
};
const OTHER_LANGUAGES: Readonly<Record<string, string>> = {
  md: 'Markdown',
  mdx: 'Markdown',
  rst: 'reStructuredText',
  adoc: 'AsciiDoc',
  json: 'JSON',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  xml: 'XML',
  html: 'HTML',
  htm: 'HTML',
  css: 'CSS',
  scss: 'CSS',
  less: 'CSS',
  sql: 'SQL',
  proto: 'Protocol Buffers',
  gradle: 'Gradle',
};
const NAMED_LANGUAGES: Readonly<Record<string, string>> = {
  makefile: 'Makefile',
  dockerfile: 'Dockerfile',
  'cmakelists.txt': 'CMake',
};

const RECENT_MS = 30 * 24 * 60 * 60 * 1000;
/** Points for a path changed by one of the latest commits. */
export const RECENT_COMMIT_POINTS = 10;

/** What the score needs to know about the directories of a path (the same for every file in a directory). */
interface DirFacts {
  depth: number;
  test: boolean;
  doc: boolean;
  fixture: boolean;
  vendor: boolean;
  generated: boolean;
}

interface PathParts {
  dirs: DirFacts;
  base: string;
  stem: string;
  ext: string;
}

const keepSegment = (segment: string): boolean => segment !== '' && segment !== '.';

function dirFactsOf(dir: string): DirFacts {
  const segments = dir.toLowerCase().split('/').filter(keepSegment);
  const any = (set: ReadonlySet<string>): boolean => segments.some((segment) => set.has(segment));
  return {
    depth: segments.length,
    test: any(TEST_DIRS),
    doc: any(DOC_DIRS),
    fixture: any(FIXTURE_DIRS),
    vendor: any(VENDOR_DIRS),
    generated: any(GENERATED_DIRS),
  };
}

/**
 * Splits a path into its directory facts and its lower-case name. `dirCache`, when given, keeps the facts per
 * directory: ranking a whole listing then splits each directory once, not once per file.
 */
function splitPath(path: string, dirCache?: Map<string, DirFacts>): PathParts {
  const normal = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  const slash = normal.lastIndexOf('/');
  const dir = slash < 0 ? '' : normal.slice(0, slash);
  let dirs = dirCache?.get(dir);
  if (dirs === undefined) {
    dirs = dirFactsOf(dir);
    dirCache?.set(dir, dirs);
  }
  const base = normal.slice(slash + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return { dirs, base, stem: dot > 0 ? base.slice(0, dot) : base, ext: dot > 0 ? base.slice(dot + 1) : '' };
}

function languageOfName(base: string, ext: string): string | undefined {
  return NAMED_LANGUAGES[base] ?? CODE_LANGUAGES[ext] ?? OTHER_LANGUAGES[ext];
}

/** The language of a file by its extension or well-known name, if it is one we know. */
export function languageOf(path: string): string | undefined {
  // Only the last segment matters: no need to split the directories.
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return languageOfName(base, dot > 0 ? base.slice(dot + 1) : '');
}

const isReadme = ({ base }: PathParts): boolean => /^readme(?:\.[a-z0-9]+)*$/.test(base);
const isManifest = ({ base, ext }: PathParts): boolean => MANIFESTS.has(base) || MANIFEST_EXTENSIONS.has(ext);
function isEntryPoint({ base, stem, ext }: PathParts): boolean {
  if (ENTRY_FILES.has(base)) return true;
  return ENTRY_STEMS.has(stem) && (ext in CODE_LANGUAGES || ext === 'html');
}

export function isReadmePath(path: string): boolean {
  return isReadme(splitPath(path));
}

export function isManifestPath(path: string): boolean {
  return isManifest(splitPath(path));
}

export function isEntryPointPath(path: string): boolean {
  return isEntryPoint(splitPath(path));
}

function isTestPath({ dirs, base }: PathParts): boolean {
  return dirs.test || /\.(test|spec)\.[^.]+$/.test(base) || /_test\.(go|py)$/.test(base) || /^test_.*\.py$/.test(base);
}

function isGeneratedPath({ dirs, base }: PathParts): boolean {
  return (
    dirs.generated ||
    /\.min\.(js|css)$/.test(base) ||
    /\.(map|generated\.[^.]+)$/.test(base) ||
    /(\.pb\.go|_pb2\.py)$/.test(base)
  );
}

function baseKind(parts: PathParts): [number, string] | undefined {
  const atRoot = parts.dirs.depth === 0;
  if (isReadme(parts)) return atRoot ? [100, 'root README'] : [60, 'README in a subdirectory'];
  if (isManifest(parts)) return atRoot ? [80, 'root manifest'] : [30, 'manifest in a subdirectory'];
  if (isEntryPoint(parts)) return [50, 'entry point'];
  if (parts.dirs.doc || DOC_EXTENSIONS.has(parts.ext)) return [30, 'documentation'];
  const code = CODE_LANGUAGES[parts.ext];
  if (code !== undefined) return [20, `${code} source`];
  const other = languageOfName(parts.base, parts.ext);
  if (other !== undefined) return [8, `${other} file`];
  return undefined;
}

/** The score; the reasons too when an array is given to collect them (ranking a whole listing skips them). */
function score(
  file: RankInput,
  context: RankContext | undefined,
  reasons?: string[],
  dirCache?: Map<string, DirFacts>,
): number {
  const parts = splitPath(file.path, dirCache);
  let total = 0;
  const apply = (points: number, reason: string): void => {
    total += points;
    reasons?.push(`${reason} (${points > 0 ? '+' : ''}${points})`);
  };

  const kind = baseKind(parts);
  if (kind !== undefined) apply(kind[0], kind[1]);
  const { depth } = parts.dirs;
  if (depth > 0) apply(-Math.min(25, 5 * depth), `depth ${depth}`);
  if (isTestPath(parts)) apply(-40, 'test');
  if (parts.dirs.fixture) apply(-40, 'fixture');
  if (parts.dirs.vendor) apply(-60, 'vendored');
  if (isGeneratedPath(parts)) apply(-50, 'generated or build output');
  if (LOCK_FILES.has(parts.base)) apply(-80, 'lock file');
  if (file.size !== undefined && file.size < 20) apply(-30, 'very small (<20 bytes)');
  if (file.size !== undefined && file.size > 200 * 1024) apply(-40, 'very large (>200 KB)');
  if (context?.recent?.has(file.path) === true) apply(RECENT_COMMIT_POINTS, 'changed in recent commits');
  const now = context?.now;
  if (now !== undefined && file.mtimeMs !== undefined && now - file.mtimeMs <= RECENT_MS) {
    apply(5, 'modified within 30 days');
  }
  return total;
}

export function scoreFile<T extends RankInput>(file: T, context?: RankContext): T & RankedFile {
  const reasons: string[] = [];
  return { ...file, score: score(file, context, reasons), reasons };
}

/**
 * Paths only, best first — the same scores and order as {@link rankFiles} without sizes, minus the reasons —
 * for a whole listing: each directory is split once.
 */
export function rankPaths(paths: readonly string[], context?: RankContext): { path: string; score: number }[] {
  return sortRanked(scorePaths(paths, context));
}

/** {@link rankPaths} in two steps: the scores (in input order)… */
export function scorePaths(paths: readonly string[], context?: RankContext): { path: string; score: number }[] {
  const dirCache = new Map<string, DirFacts>();
  const scored = new Array<{ path: string; score: number }>(paths.length);
  for (let index = 0; index < paths.length; index++) {
    const path = paths[index] as string;
    scored[index] = { path, score: score({ path }, context, undefined, dirCache) };
  }
  return scored;
}

/** …then best first (sorts in place). */
export function sortRanked<T extends { path: string; score: number }>(scored: T[]): T[] {
  return scored.sort(byScoreThenPath);
}

/** Scores every file; best first, ties broken by path (code-unit order, locale independent). */
export function rankFiles<T extends RankInput>(files: readonly T[], context?: RankContext): (T & RankedFile)[] {
  return files.map((file) => scoreFile(file, context)).sort(compareRanked);
}

function byScoreThenPath(a: { path: string; score: number }, b: { path: string; score: number }): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** Best first; ties broken by path in code-unit order (locale independent). */
export function compareRanked(a: RankedFile, b: RankedFile): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
