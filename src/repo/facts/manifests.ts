/**
 * Manifests: which listed files are build manifests (by name), and what a handful of them declare — the
 * project's name and description, workspaces, and entry points as declared targets (paths or Python
 * `module:function` references), which entryPoints.ts checks against the listing. Parsing is tolerant: a
 * manifest that does not parse declares nothing.
 */
import { parse as parseToml } from 'smol-toml';

import { cabal, dotnet, gradleBuild, mix, shard, simpleYaml, swift } from './conventionManifests.js';
import type { ManifestContent } from './manifestContent.js';
import { empty, isRecord, named, text } from './manifestContent.js';
import type { ManifestKind } from './types.js';
import { escapeControlsDeep } from '../../protocol/sanitize.js';

export type { DeclaredEntry, ManifestContent, SourceRoot } from './manifestContent.js';

export interface ManifestType {
  kind: ManifestKind;
  language: string;
  /** Lower is preferred as the primary manifest among those of one language. */
  rank: number;
}

const BY_NAME: Readonly<Record<string, ManifestType>> = {
  'package.json': { kind: 'npm', language: 'JavaScript', rank: 0 },
  'deno.json': { kind: 'deno', language: 'TypeScript', rank: 1 },
  'deno.jsonc': { kind: 'deno', language: 'TypeScript', rank: 1 },
  'pyproject.toml': { kind: 'python', language: 'Python', rank: 0 },
  'setup.py': { kind: 'python', language: 'Python', rank: 1 },
  'setup.cfg': { kind: 'python', language: 'Python', rank: 2 },
  'cargo.toml': { kind: 'cargo', language: 'Rust', rank: 0 },
  'go.mod': { kind: 'go', language: 'Go', rank: 0 },
  gemfile: { kind: 'gem', language: 'Ruby', rank: 2 },
  'composer.json': { kind: 'composer', language: 'PHP', rank: 0 },
  'pom.xml': { kind: 'maven', language: 'Java', rank: 0 },
  'build.gradle': { kind: 'gradle', language: 'Java', rank: 1 },
  'build.gradle.kts': { kind: 'gradle', language: 'Kotlin', rank: 1 },
  'settings.gradle': { kind: 'gradle', language: 'Java', rank: 2 },
  'settings.gradle.kts': { kind: 'gradle', language: 'Kotlin', rank: 2 },
  'cmakelists.txt': { kind: 'cmake', language: 'C++', rank: 0 },
  'meson.build': { kind: 'meson', language: 'C', rank: 1 },
  'configure.ac': { kind: 'autoconf', language: 'C', rank: 2 },
  makefile: { kind: 'make', language: 'Makefile', rank: 5 },
  gnumakefile: { kind: 'make', language: 'Makefile', rank: 5 },
  'package.swift': { kind: 'swift', language: 'Swift', rank: 0 },
  'pubspec.yaml': { kind: 'dart', language: 'Dart', rank: 0 },
  'mix.exs': { kind: 'elixir', language: 'Elixir', rank: 0 },
  'shard.yml': { kind: 'crystal', language: 'Crystal', rank: 0 },
};

/** What kind of manifest a file name is, if any. */
export function manifestTypeOf(path: string): ManifestType | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const known = BY_NAME[name];
  if (known !== undefined) return known;
  if (name.endsWith('.gemspec')) return { kind: 'gem', language: 'Ruby', rank: 0 };
  if (name.endsWith('.csproj')) return { kind: 'dotnet', language: 'C#', rank: 0 };
  if (name.endsWith('.fsproj')) return { kind: 'dotnet', language: 'F#', rank: 0 };
  if (name.endsWith('.sln') || name.endsWith('.slnx')) return { kind: 'dotnet', language: 'C#', rank: 1 };
  if (name.endsWith('.cabal')) return { kind: 'haskell', language: 'Haskell', rank: 0 };
  return undefined;
}

/** The first string in an `exports` condition tree, preferring `import`, `default`, `node`, `require`. */
function exportTarget(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (depth > 4 || !isRecord(value)) return undefined;
  const root = value['.'];
  if (root !== undefined) return exportTarget(root, depth + 1);
  for (const key of ['import', 'default', 'node', 'require']) {
    const found = exportTarget(value[key], depth + 1);
    if (found !== undefined) return found;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'types' || key.startsWith('./')) continue;
    const found = exportTarget(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const NPM_SCRIPTS = ['start', 'dev', 'build', 'test'];

function npm(path: string, source: string): ManifestContent {
  const content = empty();
  const data: unknown = JSON.parse(source);
  if (!isRecord(data)) return content;
  named(content, data.name, data.description);
  if (data.workspaces !== undefined) content.workspace = true;
  const entry = (target: unknown, field: string): void => {
    const value = text(target);
    if (value !== undefined) content.entries.push({ target: value, via: `${path} \`${field}\`` });
  };
  if (typeof data.bin === 'string') entry(data.bin, 'bin');
  if (isRecord(data.bin)) for (const [command, target] of Object.entries(data.bin)) entry(target, `bin.${command}`);
  entry(exportTarget(data.exports), 'exports');
  entry(data.main, 'main');
  entry(data.module, 'module');
  if (isRecord(data.scripts)) {
    for (const script of NPM_SCRIPTS) {
      if (typeof data.scripts[script] === 'string') {
        content.commands.push({
          command: script === 'start' || script === 'test' ? `npm ${script}` : `npm run ${script}`,
          via: `${path} \`scripts.${script}\``,
        });
      }
    }
  }
  return content;
}

function scripts(content: ManifestContent, table: unknown, via: string): void {
  if (!isRecord(table)) return;
  for (const [command, reference] of Object.entries(table)) {
    const target = isRecord(reference) ? text(reference.reference) : text(reference);
    if (target !== undefined) content.entries.push({ target, via: `${via} ${command}`, module: true });
  }
}

function pyproject(path: string, source: string): ManifestContent {
  const content = empty();
  const data = parseToml(source);
  const project = data.project;
  const poetry = isRecord(data.tool) ? data.tool.poetry : undefined;
  if (isRecord(project)) {
    named(content, project.name, project.description);
    scripts(content, project.scripts, `${path} \`[project.scripts]\``);
    scripts(content, project['gui-scripts'], `${path} \`[project.gui-scripts]\``);
  }
  if (isRecord(poetry)) {
    named(content, poetry.name, poetry.description);
    scripts(content, poetry.scripts, `${path} \`[tool.poetry.scripts]\``);
  }
  return content;
}

/** `name = pkg.module:function` lines of a `console_scripts` list (setup.py or setup.cfg). */
function consoleScripts(content: ManifestContent, source: string, via: string): void {
  for (const match of source.matchAll(/["']?\s*([\w.-]+)\s*=\s*([\w.]+(?::[\w.]+)?)\s*["']?/g)) {
    const [, command, target] = match;
    if (command !== undefined && target !== undefined && target.includes(':')) {
      content.entries.push({ target, via: `${via} ${command}`, module: true });
    }
  }
}

function setupPy(path: string, source: string): ManifestContent {
  const content = empty();
  named(
    content,
    /\bname\s*=\s*["']([^"'\n]+)["']/.exec(source)?.[1],
    /\bdescription\s*=\s*["']([^"'\n]+)["']/.exec(source)?.[1],
  );
  const scriptsBlock = /console_scripts['"]?\s*[:=]\s*\[([^\]]*)\]/.exec(source)?.[1];
  if (scriptsBlock !== undefined) consoleScripts(content, scriptsBlock, `${path} \`console_scripts\``);
  return content;
}

function setupCfg(path: string, source: string): ManifestContent {
  const content = empty();
  const metadata = /^\[metadata\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(source)?.[1] ?? '';
  named(content, /^name\s*=\s*(.+)$/m.exec(metadata)?.[1], /^description\s*=\s*(.+)$/m.exec(metadata)?.[1]);
  const entryBlock = /^console_scripts\s*=\s*$([\s\S]*?)(?=^\S|(?![\s\S]))/m.exec(source)?.[1];
  if (entryBlock !== undefined) consoleScripts(content, entryBlock, `${path} \`console_scripts\``);
  return content;
}

function cargo(path: string, source: string): ManifestContent {
  const content = empty();
  const data = parseToml(source);
  if (isRecord(data.package)) named(content, data.package.name, data.package.description);
  if (data.workspace !== undefined) content.workspace = true;
  if (Array.isArray(data.bin)) {
    for (const bin of data.bin) {
      if (isRecord(bin) && text(bin.path) !== undefined) {
        const name = text(bin.name);
        content.entries.push({
          target: text(bin.path) as string,
          via: `${path} \`[[bin]]${name === undefined ? '' : ` ${name}`}\``,
        });
      }
    }
  }
  if (isRecord(data.lib) && text(data.lib.path) !== undefined) {
    content.entries.push({ target: text(data.lib.path) as string, via: `${path} \`[lib]\`` });
  }
  return content;
}

function goMod(_path: string, source: string): ManifestContent {
  const content = empty();
  const module = /^\s*module\s+"?([^\s"]+)"?/m.exec(source)?.[1];
  if (module !== undefined) content.name = module;
  return content;
}

function gemspec(path: string, source: string): ManifestContent {
  const content = empty();
  named(
    content,
    /\.name\s*=\s*["']([^"']+)["']/.exec(source)?.[1] ??
      /Specification\.new\s*\(?\s*["']([^"']+)["']/.exec(source)?.[1],
    /\.summary\s*=\s*["']([^"']+)["']/.exec(source)?.[1] ?? /\.description\s*=\s*["']([^"']+)["']/.exec(source)?.[1],
  );
  const bindir = /\.bindir\s*=\s*["']([^"']+)["']/.exec(source)?.[1] ?? 'bin';
  const executables = /\.executables\s*=\s*(?:%w[[(]([^\])]*)[\])]|\[([^\]]*)\])/.exec(source);
  const list = executables?.[1] ?? executables?.[2]?.replace(/["',]/g, ' ');
  for (const executable of list?.split(/\s+/).filter((word) => /^[\w.-]+$/.test(word)) ?? []) {
    content.entries.push({ target: `${bindir}/${executable}`, via: `${path} \`executables\`` });
  }
  return content;
}

function composer(path: string, source: string): ManifestContent {
  const content = empty();
  const data: unknown = JSON.parse(source);
  if (!isRecord(data)) return content;
  named(content, data.name, data.description);
  const bins = Array.isArray(data.bin) ? data.bin : [data.bin];
  for (const bin of bins)
    if (text(bin) !== undefined) content.entries.push({ target: text(bin) as string, via: `${path} \`bin\`` });
  const autoload = isRecord(data.autoload) ? data.autoload : {};
  for (const standard of ['psr-4', 'psr-0']) {
    const map = autoload[standard];
    if (!isRecord(map)) continue;
    for (const [namespace, dirs] of Object.entries(map)) {
      for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
        if (text(dir) !== undefined) (content.roots ??= []).push({ namespace, dir: text(dir) as string });
      }
    }
  }
  return content;
}

/** The project's own `<tag>` in a pom: outside `<parent>`, dependencies, build and profiles. */
function pom(_path: string, source: string): ManifestContent {
  const content = empty();
  const own = source
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(
      /<(parent|dependencies|dependencyManagement|build|profiles|reporting|developers|contributors|licenses|scm|distributionManagement|properties)\b[\s\S]*?<\/\1>/g,
      '',
    );
  const tag = (name: string): string | undefined => new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(own)?.[1];
  named(content, tag('artifactId'), tag('description'));
  if (/<modules>/.test(own)) content.workspace = true;
  return content;
}

function gradleSettings(_path: string, source: string): ManifestContent {
  const content = empty();
  named(content, /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(source)?.[1], undefined);
  if (/\binclude\s*\(?\s*["']/.test(source)) content.workspace = true;
  return content;
}

function cmake(_path: string, source: string): ManifestContent {
  const content = empty();
  const project = /^\s*project\s*\(\s*([A-Za-z_][\w.+-]*)([^)]*)\)/im.exec(source);
  named(content, project?.[1], /DESCRIPTION\s+"([^"]+)"/.exec(project?.[2] ?? '')?.[1]);
  return content;
}

const SPECIAL_TARGETS = /^(\.|all$|clean$|distclean$|help$|FORCE$)/;

const SOURCE_PREREQUISITE = /^[\w./-]+\.(c|cc|cpp|cxx|go|rs|zig)$/;

function makefile(path: string, source: string): ManifestContent {
  const content = empty();
  const seen = new Set<string>();
  for (const match of source.matchAll(/^([A-Za-z][\w.-]*)\s*:(?![=:])([^\n]*)/gm)) {
    const target = match[1];
    if (target === undefined || seen.has(target) || SPECIAL_TARGETS.test(target) || target.includes('.')) continue;
    seen.add(target);
    content.commands.push({ command: `make ${target}`, via: `${path} target` });
    // `kilo: kilo.c` — a program built from a source file of the same name.
    for (const prerequisite of (match[2] ?? '').trim().split(/\s+/)) {
      const stem = prerequisite.slice(prerequisite.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
      if (SOURCE_PREREQUISITE.test(prerequisite) && stem === target) {
        content.entries.push({ target: prerequisite, via: `${path} target \`${target}\`` });
      }
    }
  }
  return content;
}

function autoconf(_path: string, source: string): ManifestContent {
  const content = empty();
  named(content, /AC_INIT\(\s*\[?([^\],)]+)\]?/.exec(source)?.[1], undefined);
  return content;
}

function meson(_path: string, source: string): ManifestContent {
  const content = empty();
  named(content, /project\(\s*'([^']+)'/.exec(source)?.[1], undefined);
  return content;
}

function deno(path: string, source: string): ManifestContent {
  try {
    return npm(path, source);
  } catch {
    return empty();
  }
}

const READERS: Readonly<Record<string, (path: string, source: string) => ManifestContent>> = {
  'package.json': npm,
  'deno.json': deno,
  'deno.jsonc': deno,
  'pyproject.toml': pyproject,
  'setup.py': setupPy,
  'setup.cfg': setupCfg,
  'cargo.toml': cargo,
  'go.mod': goMod,
  'composer.json': composer,
  'pom.xml': pom,
  'settings.gradle': gradleSettings,
  'settings.gradle.kts': gradleSettings,
  'cmakelists.txt': cmake,
  makefile,
  gnumakefile: makefile,
  'configure.ac': autoconf,
  'meson.build': meson,
  'pubspec.yaml': simpleYaml,
  'package.swift': swift,
  'mix.exs': mix,
  'shard.yml': shard,
  'build.gradle': gradleBuild,
  'build.gradle.kts': gradleBuild,
};

/** What a manifest declares; nothing when it does not parse. */
export function readManifest(path: string, source: string): ManifestContent {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const reader = name.endsWith('.gemspec')
    ? gemspec
    : /\.([cf]sproj|slnx?)$/.test(name)
      ? dotnet
      : name.endsWith('.cabal')
        ? cabal
        : READERS[name];
  if (reader === undefined) return empty();
  try {
    // Every field as the prompts, the results and the terminal show it: controls and format characters escaped.
    return escapeControlsDeep(reader(path, source));
  } catch {
    return empty();
  }
}
