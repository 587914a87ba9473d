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
 *   very small (< 20 bytes) -30, very large (> 200 KB) -40
 *   modified within 30 days of `now` (only when both are known) .. +5
 */

export interface RankInput {
  path: string;
  size: number;
  mtimeMs?: number;
}

export interface RankedFile extends RankInput {
  score: number;
  reasons: string[];
}

export interface RankContext {
  /** Milliseconds since the epoch; without it there is no recency bonus. */
  now?: number;
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
]);
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

interface PathParts {
  dirs: string[];
  base: string;
  stem: string;
  ext: string;
}

function splitPath(path: string): PathParts {
  const segments = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const base = (segments.pop() ?? '').toLowerCase();
  const dot = base.lastIndexOf('.');
  return {
    dirs: segments.map((segment) => segment.toLowerCase()),
    base,
    stem: dot > 0 ? base.slice(0, dot) : base,
    ext: dot > 0 ? base.slice(dot + 1) : '',
  };
}

/** The language of a file by its extension or well-known name, if it is one we know. */
export function languageOf(path: string): string | undefined {
  const { base, ext } = splitPath(path);
  return NAMED_LANGUAGES[base] ?? CODE_LANGUAGES[ext] ?? OTHER_LANGUAGES[ext];
}

export function isReadmePath(path: string): boolean {
  return /^readme(?:\.[a-z0-9]+)*$/.test(splitPath(path).base);
}

export function isManifestPath(path: string): boolean {
  const { base, ext } = splitPath(path);
  return MANIFESTS.has(base) || ext === 'csproj';
}

export function isEntryPointPath(path: string): boolean {
  const { base, stem, ext } = splitPath(path);
  if (ENTRY_FILES.has(base)) return true;
  return ENTRY_STEMS.has(stem) && (ext in CODE_LANGUAGES || ext === 'html');
}

function isTestPath({ dirs, base }: PathParts): boolean {
  return (
    dirs.some((dir) => TEST_DIRS.has(dir)) ||
    /\.(test|spec)\.[^.]+$/.test(base) ||
    /_test\.(go|py)$/.test(base) ||
    /^test_.*\.py$/.test(base)
  );
}

function isGeneratedPath({ dirs, base }: PathParts): boolean {
  return (
    dirs.some((dir) => GENERATED_DIRS.has(dir)) ||
    /\.min\.(js|css)$/.test(base) ||
    /\.(map|generated\.[^.]+)$/.test(base) ||
    /(\.pb\.go|_pb2\.py)$/.test(base)
  );
}

function baseKind(path: string, parts: PathParts): [number, string] | undefined {
  const atRoot = parts.dirs.length === 0;
  if (isReadmePath(path)) return atRoot ? [100, 'root README'] : [60, 'README in a subdirectory'];
  if (isManifestPath(path)) return atRoot ? [80, 'root manifest'] : [30, 'manifest in a subdirectory'];
  if (isEntryPointPath(path)) return [50, 'entry point'];
  if (parts.dirs.some((dir) => DOC_DIRS.has(dir)) || DOC_EXTENSIONS.has(parts.ext)) return [30, 'documentation'];
  const code = CODE_LANGUAGES[parts.ext];
  if (code !== undefined) return [20, `${code} source`];
  const other = languageOf(path);
  if (other !== undefined) return [8, `${other} file`];
  return undefined;
}

export function scoreFile(file: RankInput, context?: RankContext): RankedFile {
  const parts = splitPath(file.path);
  const reasons: string[] = [];
  let score = 0;
  const apply = (points: number, reason: string): void => {
    score += points;
    reasons.push(`${reason} (${points > 0 ? '+' : ''}${points})`);
  };

  const kind = baseKind(file.path, parts);
  if (kind !== undefined) apply(kind[0], kind[1]);
  if (parts.dirs.length > 0) apply(-Math.min(25, 5 * parts.dirs.length), `depth ${parts.dirs.length}`);
  if (isTestPath(parts)) apply(-40, 'test');
  if (parts.dirs.some((dir) => FIXTURE_DIRS.has(dir))) apply(-40, 'fixture');
  if (parts.dirs.some((dir) => VENDOR_DIRS.has(dir))) apply(-60, 'vendored');
  if (isGeneratedPath(parts)) apply(-50, 'generated or build output');
  if (LOCK_FILES.has(parts.base)) apply(-80, 'lock file');
  if (file.size < 20) apply(-30, 'very small (<20 bytes)');
  if (file.size > 200 * 1024) apply(-40, 'very large (>200 KB)');
  const now = context?.now;
  if (now !== undefined && file.mtimeMs !== undefined && now - file.mtimeMs <= RECENT_MS) {
    apply(5, 'modified within 30 days');
  }
  return { ...file, score, reasons };
}

/** Scores every file; best first, ties broken by path (code-unit order, locale independent). */
export function rankFiles(files: readonly RankInput[], context?: RankContext): RankedFile[] {
  return files
    .map((file) => scoreFile(file, context))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
