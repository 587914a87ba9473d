/**
 * Entry points, checked against the listing: what the manifests declare (`bin`/`exports`/`main`,
 * `[project.scripts]`, `[[bin]]`, gemspec executables…), then the language's conventions (`main.go` and
 * `cmd/<name>/main.go` (or `cmd/<name>/<name>.go`) beside a `go.mod`, `src/main.rs`/`src/lib.rs` beside a `Cargo.toml`, a Python
 * package's `__main__.py`/`__init__.py`, `lib/<gem>.rb`), then a source file named after the project.
 * A declared build output that is not in the checkout (`dist/index.js`) is mapped to its source
 * (`src/index.ts`) when that exists, and dropped otherwise: an entry point never names an absent path.
 */
import type { LanguageInfo } from './languageData.js';
import type { DeclaredEntry, SourceRoot } from './manifests.js';
import { manifestTypeOf } from './manifests.js';
import { nameKey, shortProjectName } from './names.js';
import { isDocumentationPath, isGeneratedPath, isVendoredPath } from './pathKinds.js';
import type { EntryPointFact, ManifestFact } from './types.js';
import { MAX_ENTRY_POINTS } from './types.js';

export interface EntryPointInput {
  /** Relative to the base, sorted. */
  paths: readonly string[];
  listed: ReadonlySet<string>;
  manifests: readonly (ManifestFact & { entries: readonly DeclaredEntry[]; roots?: readonly SourceRoot[] })[];
  /**
   * How many of `manifests` (the first ones) are the project's own: the root's and its main member's. Their
   * declarations and conventions come before the file named after the project, and that before other members'.
   * Default: all of them.
   */
  leading?: number;
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

/** Class names a PHP package's main class conventionally has, when it is not named after the package. */
const PHP_MAIN_CLASSES = ['Application', 'App', 'Kernel', 'Client', 'Server'];
/** Directories that hold a framework's core, preferred among main classes of the same depth. */
const CORE_DIRS = /(^|\/)(core|foundation|kernel|base|main)\/$/i;

/**
 * A PHP package's main class in its autoloaded namespace roots: named after the namespace's last segment or the
 * package (`src/PHPMailer.php`), else a conventional main class (`Application`, `Kernel`, `Client`…), shallowest
 * first and in a core directory (`Foundation/`) before others.
 */
function phpMainClass(
  manifest: ManifestFact & { roots?: readonly SourceRoot[] },
  paths: readonly string[],
  listed: ReadonlySet<string>,
): EntryPointFact[] {
  const dir = dirOf(manifest.path);
  const out: EntryPointFact[] = [];
  const packageName = manifest.name === undefined ? undefined : nameKey(shortProjectName(manifest.name));
  for (const root of manifest.roots ?? []) {
    const rootDir = normalize(dir, root.dir);
    if (rootDir === undefined) continue;
    const prefix = `${rootDir}/`;
    const segment = root.namespace
      .split('\\')
      .filter((part) => part !== '')
      .pop();
    const named = [segment, packageName].filter((name): name is string => name !== undefined);
    const inRoot = paths.filter(
      (path) => path.startsWith(prefix) && path.endsWith('.php') && !NOT_SOURCE_DIRS.test(path),
    );
    const byName = inRoot.find(
      (path) =>
        path.slice(prefix.length).split('/').length === 1 &&
        named.some((name) => nameKey(name) === nameKey(path.slice(prefix.length, -4))),
    );
    if (byName !== undefined) {
      out.push({
        path: byName,
        via: `${manifest.path} \`autoload\` ${root.namespace} (class named after the namespace)`,
      });
      continue;
    }
    const mains = inRoot
      .map((path) => {
        const base = path.slice(path.lastIndexOf('/') + 1, -4);
        const local = path.slice(prefix.length);
        return {
          path,
          rank: PHP_MAIN_CLASSES.indexOf(base),
          depth: local.split('/').length,
          core: CORE_DIRS.test(dirOf(local)),
        };
      })
      .filter((entry) => entry.rank >= 0 && !/(^|\/)(contracts?|interfaces?|testing|tests?)\//i.test(entry.path))
      .sort(
        (a, b) =>
          a.depth - b.depth || Number(b.core) - Number(a.core) || a.rank - b.rank || compareText(a.path, b.path),
      );
    if (mains[0] !== undefined && listed.has(mains[0].path)) {
      out.push({ path: mains[0].path, via: `${manifest.path} \`autoload\` ${root.namespace} (main class)` });
    }
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The conventional entry points of one manifest's language, in its directory. */
function conventional(
  manifest: ManifestFact & { roots?: readonly SourceRoot[] },
  paths: readonly string[],
  listed: ReadonlySet<string>,
): EntryPointFact[] {
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
    case 'elixir': {
      // The app's main module, else its OTP application callback (`lib/<app>/application.ex`).
      const app = manifest.name;
      if (app === undefined) return [];
      return [`lib/${app}.ex`, `lib/${app}/application.ex`]
        .filter(has)
        .slice(0, 1)
        .map((path) => found(path, 'Elixir application (lib/<app>.ex, lib/<app>/application.ex)'));
    }
    case 'crystal':
      return manifest.name !== undefined && has(`src/${manifest.name}.cr`)
        ? [found(`src/${manifest.name}.cr`, 'Crystal shard (src/<name>.cr)')]
        : [];
    case 'haskell':
      return ['app/Main.hs', 'exe/Main.hs', 'Main.hs', 'src/Main.hs']
        .filter(has)
        .slice(0, 1)
        .map((path) => found(path, 'Haskell executable (Main.hs)'));
    case 'swift':
      return manifest.name !== undefined && has(`Sources/${manifest.name}/${manifest.name}.swift`)
        ? [found(`Sources/${manifest.name}/${manifest.name}.swift`, 'Swift package target (Sources/<name>/)')]
        : [];
    case 'composer':
      return phpMainClass(manifest, paths, listed);
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

const SHELL_EXTENSIONS = /\.(sh|bash|zsh|ksh)$/i;
const SHELL_HELPERS =
  /^(install|uninstall|setup|bootstrap|build|release|update|upgrade|test|tests|run[-_]?tests?|ci|lint|format|configure|env)([-_.].*)?$|(^|[-_])(test|tests|mocks?)$/i;

/**
 * A shell project's top-level script: `<name>.sh`, else its only top-level script that is not an
 * install, build or test helper.
 */
function shellScript(input: EntryPointInput): EntryPointFact[] {
  if (input.language !== 'Shell') return [];
  const scripts = input.paths.filter((path) => !path.includes('/') && SHELL_EXTENSIONS.test(path));
  const name = input.projectName === undefined ? undefined : nameKey(shortProjectName(input.projectName));
  const named = scripts.find((path) => name !== undefined && nameKey(path.replace(SHELL_EXTENSIONS, '')) === name);
  if (named !== undefined) return [{ path: named, via: 'shell script named after the project' }];
  const main = scripts.filter((path) => !SHELL_HELPERS.test(path.replace(SHELL_EXTENSIONS, '')));
  return main.length === 1 && main[0] !== undefined ? [{ path: main[0], via: 'the top-level shell script' }] : [];
}

/** Documents, data and licences are never where a reader starts: only code (or an extensionless script). */
function isDocument(path: string, languageOf: EntryPointInput['languageOf']): boolean {
  if (isDocumentationPath(path)) return true;
  const info = languageOf(path);
  return info !== undefined && (info.type === 'prose' || info.type === 'data' || info.name === 'HTML');
}

export function findEntryPoints(input: EntryPointInput): EntryPointFact[] {
  const out: EntryPointFact[] = [];
  const seen = new Set<string>();
  const push = (entry: EntryPointFact | undefined): void => {
    if (entry === undefined || seen.has(entry.path) || !input.listed.has(entry.path)) return;
    if (isDocument(entry.path, input.languageOf)) return;
    seen.add(entry.path);
    out.push(entry);
  };
  const leading = input.manifests.slice(0, input.leading ?? input.manifests.length);
  const others = input.manifests.slice(leading.length);
  for (const group of [leading, others]) {
    for (const manifest of group) {
      for (const entry of manifest.entries) push(resolveDeclared(manifest, entry, input.listed));
    }
    for (const manifest of group) {
      for (const entry of conventional(manifest, input.paths, input.listed)) push(entry);
    }
    if (group === leading) {
      for (const entry of namedAfterProject(input)) push(entry);
      for (const entry of shellScript(input)) push(entry);
    }
  }
  return out.slice(0, MAX_ENTRY_POINTS);
}
