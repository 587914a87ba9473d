/**
 * Entry points, checked against the listing: what the manifests declare (`bin`/`exports`/`main`,
 * `[project.scripts]`, `[[bin]]`, gemspec executables…), then the language's conventions (`main.go` and
 * `cmd/<name>/main.go` (or `cmd/<name>/<name>.go`) beside a `go.mod`, `src/main.rs`/`src/lib.rs` beside a `Cargo.toml`, a Python
 * package's `__main__.py`/`__init__.py`, `lib/<gem>.rb`), then a source file named after the project.
 * A declared build output that is not in the checkout (`dist/index.js`) is mapped to its source
 * (`src/index.ts`) when that exists, and dropped otherwise: an entry point never names an absent path.
 */
import type { LanguageInfo } from './languageData.js';
import type { DeclaredEntry } from './manifests.js';
import { manifestTypeOf } from './manifests.js';
import { nameKey, shortProjectName } from './names.js';
import { isGeneratedPath, isVendoredPath } from './pathKinds.js';
import type { EntryPointFact, ManifestFact } from './types.js';
import { MAX_ENTRY_POINTS } from './types.js';

export interface EntryPointInput {
  /** Relative to the base, sorted. */
  paths: readonly string[];
  listed: ReadonlySet<string>;
  manifests: readonly (ManifestFact & { entries: readonly DeclaredEntry[] })[];
  /** The main code language, if any. */
  language?: string;
  /** The project's name, for the "named after the project" convention. */
  projectName?: string;
  languageOf: (path: string) => LanguageInfo | undefined;
}

const OUTPUT_DIRS = /^(dist|build|lib|out|distribution|esm|cjs|es|umd|bundle|target)\//;
const SOURCE_DIRS = ['src/', 'source/', 'lib/', ''];
const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

/** `./a/../b.js` -> `b.js`, relative to `dir`; undefined when it leaves the base. */
function normalize(dir: string, target: string): string | undefined {
  const parts: string[] = [];
  for (const segment of `${dir}${target}`.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : undefined;
}

/** A declared script path, or its source when the declared file is build output absent from the listing. */
function resolveScript(dir: string, target: string, listed: ReadonlySet<string>): string | undefined {
  const path = normalize(dir, target);
  if (path === undefined) return undefined;
  if (listed.has(path)) return path;
  for (const extension of SCRIPT_EXTENSIONS) if (listed.has(`${path}${extension}`)) return `${path}${extension}`;
  for (const index of ['/index.js', '/index.ts']) if (listed.has(`${path}${index}`)) return `${path}${index}`;
  const local = path.slice(dir.length);
  const stem = local.replace(OUTPUT_DIRS, '').replace(/\.(d\.ts|[cm]?js|jsx)$/, '');
  if (stem === local.replace(/\.(d\.ts|[cm]?js|jsx)$/, '') && !OUTPUT_DIRS.test(local)) return undefined;
  for (const sourceDir of SOURCE_DIRS) {
    for (const extension of SCRIPT_EXTENSIONS) {
      const candidate = `${dir}${sourceDir}${stem}${extension}`;
      if (listed.has(candidate) && !isGeneratedPath(candidate)) return candidate;
    }
  }
  return undefined;
}

/** `pkg.module:function` -> the module's file, in the flat or the `src/` layout. */
function resolveModule(dir: string, reference: string, listed: ReadonlySet<string>): string | undefined {
  const module = reference.split(':')[0]?.trim();
  if (module === undefined || !/^[\w.]+$/.test(module)) return undefined;
  const path = module.replace(/\./g, '/');
  for (const prefix of ['', 'src/']) {
    for (const candidate of [`${dir}${prefix}${path}.py`, `${dir}${prefix}${path}/__init__.py`]) {
      if (listed.has(candidate)) return candidate;
    }
  }
  return undefined;
}

function resolveDeclared(
  manifest: ManifestFact,
  entry: DeclaredEntry,
  listed: ReadonlySet<string>,
): EntryPointFact | undefined {
  const dir = dirOf(manifest.path);
  const path =
    entry.module === true ? resolveModule(dir, entry.target, listed) : resolveScript(dir, entry.target, listed);
  if (path === undefined) return undefined;
  const declared = normalize(dir, entry.target);
  return { path, via: entry.via, ...(declared !== path && { declared: entry.target }) };
}

function pythonPackages(dir: string, paths: readonly string[], name: string | undefined): string[] {
  const found: string[] = [];
  const wanted = name?.toLowerCase().replace(/-/g, '_');
  for (const path of paths) {
    if (!path.startsWith(dir)) continue;
    const local = path.slice(dir.length);
    const match = /^(?:src\/)?([\w]+)\/(__main__|__init__)\.py$/.exec(local);
    if (match?.[1] === undefined || /^(tests?|docs?|examples?|scripts?)$/.test(match[1])) continue;
    if (wanted === undefined || match[1].toLowerCase() === wanted) found.push(path);
  }
  return found.sort((a, b) => Number(a.endsWith('__init__.py')) - Number(b.endsWith('__init__.py')));
}

/** The conventional entry points of one manifest's language, in its directory. */
function conventional(manifest: ManifestFact, paths: readonly string[], listed: ReadonlySet<string>): EntryPointFact[] {
  const dir = dirOf(manifest.path);
  const has = (path: string): boolean => listed.has(`${dir}${path}`);
  const found = (path: string, via: string): EntryPointFact => ({ path: `${dir}${path}`, via });
  switch (manifest.kind) {
    case 'go': {
      const out: EntryPointFact[] = [];
      if (has('main.go')) out.push(found('main.go', 'Go main package at the module root'));
      // A command's main package is `cmd/<name>/`: its `main.go`, else the file named after it (`cmd/kubectl/kubectl.go`).
      const commands = new Map<string, string>();
      for (const path of paths) {
        if (!path.startsWith(`${dir}cmd/`)) continue;
        const match = /^cmd\/([^/]+)\/([^/]+)\.go$/.exec(path.slice(dir.length));
        if (match === null || (match[2] !== 'main' && match[2] !== match[1])) continue;
        const command = match[1] as string;
        if (match[2] === 'main' || !commands.has(command)) commands.set(command, path);
      }
      for (const path of commands.values()) out.push({ path, via: 'Go command under cmd/' });
      return out;
    }
    case 'cargo': {
      const out: EntryPointFact[] = [];
      if (has('src/main.rs')) out.push(found('src/main.rs', 'Cargo binary (src/main.rs)'));
      if (has('src/lib.rs')) out.push(found('src/lib.rs', 'Cargo library (src/lib.rs)'));
      return out;
    }
    case 'python': {
      const name = manifest.name;
      const own = pythonPackages(dir, paths, name);
      const packages = own.length > 0 ? own : pythonPackages(dir, paths, undefined).slice(0, 2);
      return packages.map((path) => ({
        path,
        via: `Python package ${path.endsWith('__main__.py') ? '`__main__`' : '`__init__`'}`,
      }));
    }
    case 'gem': {
      const name = manifest.name;
      return name !== undefined && has(`lib/${name}.rb`)
        ? [found(`lib/${name}.rb`, 'gem library (lib/<name>.rb)')]
        : [];
    }
    case 'npm':
    case 'deno':
      return ['src/index.ts', 'src/main.ts', 'source/index.ts', 'index.ts', 'index.js', 'src/index.js', 'mod.ts']
        .filter(has)
        .slice(0, 1)
        .map((path) => found(path, 'conventional module entry'));
    default:
      return [];
  }
}

const HEADER = /\.(h|hh|hpp|hxx)$/i;
const NOT_SOURCE_DIRS = /(^|\/)(tests?|examples?|docs?|tools?|scripts?|benchmarks?|fuzz(ing)?)\//i;

/**
 * The shallowest file of the main language named after the project (`gin.go`, `Gson.java`), or a C/C++
 * `main` file; a header comes last.
 */
function namedAfterProject(input: EntryPointInput): EntryPointFact[] {
  // The whole short name first (`gin`, `gson`), then its last word (`nlohmann_json` -> `json`).
  const short = input.projectName === undefined ? undefined : nameKey(shortProjectName(input.projectName));
  const lastWord = input.projectName
    ?.split(/[-_/ ]/)
    .filter((word) => word !== '' && !/^v\d+$/.test(word))
    .pop();
  const wanted = [short, lastWord === undefined ? undefined : nameKey(lastWord)].filter(
    (name): name is string => name !== undefined && name !== '',
  );
  let best: { path: string; rank: number; via: string } | undefined;
  for (const path of input.paths) {
    if (isVendoredPath(path) || isGeneratedPath(path) || NOT_SOURCE_DIRS.test(path)) continue;
    if (manifestTypeOf(path) !== undefined) continue;
    const language = input.languageOf(path)?.name;
    if (language === undefined || language !== input.language) continue;
    const base = path.slice(path.lastIndexOf('/') + 1);
    const stem = nameKey(base.slice(0, base.lastIndexOf('.')));
    const main = /^main\.(c|cc|cpp|cxx)$/i.test(base);
    const match = wanted.indexOf(stem);
    if (!main && match < 0) continue;
    const rank = path.split('/').length + (main ? 0 : 10 + 5 * match) + (HEADER.test(base) ? 20 : 0);
    if (best === undefined || rank < best.rank) {
      best = { path, rank, via: main ? 'C/C++ `main` file' : 'source file named after the project' };
    }
  }
  return best === undefined ? [] : [{ path: best.path, via: best.via }];
}

export function findEntryPoints(input: EntryPointInput): EntryPointFact[] {
  const out: EntryPointFact[] = [];
  const seen = new Set<string>();
  const push = (entry: EntryPointFact | undefined): void => {
    if (entry === undefined || seen.has(entry.path) || !input.listed.has(entry.path)) return;
    seen.add(entry.path);
    out.push(entry);
  };
  for (const manifest of input.manifests) {
    for (const entry of manifest.entries) push(resolveDeclared(manifest, entry, input.listed));
  }
  for (const manifest of input.manifests) {
    for (const entry of conventional(manifest, input.paths, input.listed)) push(entry);
  }
  for (const entry of namedAfterProject(input)) push(entry);
  return out.slice(0, MAX_ENTRY_POINTS);
}
