/**
 * Readers of the manifests that name a project's entry point by their language's convention: Gradle builds
 * (`application` `mainClass`, a jar's `Main-Class`), shard.yml `targets`, .cabal `executable` `main-is`,
 * Package.swift products, mix.exs `app` and .NET project files (`OutputType` `Exe`).
 */
import type { ManifestContent } from './manifestContent.js';
import { empty, named } from './manifestContent.js';

/** `a.b.Main` (or Kotlin's `a.b.MainKt`) -> its source file under the JVM source sets. */
function jvmClassFiles(mainClass: string): string[] {
  const path = mainClass.replace(/\./g, '/');
  const kotlin = path.replace(/Kt$/, '');
  return ['src/main/java', 'src/main/kotlin', 'src/jvmMain/kotlin'].flatMap((dir) => [
    `${dir}/${path}.java`,
    `${dir}/${kotlin}.kt`,
  ]);
}

/** `application { mainClass = … }`, `mainClassName = …`, or a jar manifest's `Main-Class`, as a string literal. */
export function gradleBuild(path: string, source: string): ManifestContent {
  const content = empty();
  const patterns = [
    /\bmainClass(?:\.set\(\s*|\s*=\s*)["']([\w.$]+)["']/g,
    /\bmainClassName(?:\.set\(\s*|\s*=\s*)["']([\w.$]+)["']/g,
    /["']Main-Class["']\s*(?:to|:|,)\s*["']([\w.$]+)["']/g,
  ];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const mainClass = match[1];
      if (mainClass === undefined || seen.has(mainClass)) continue;
      seen.add(mainClass);
      for (const target of jvmClassFiles(mainClass)) {
        content.entries.push({ target, via: `${path} main class \`${mainClass}\`` });
      }
    }
  }
  return content;
}

/** shard.yml: `name`, `description` (plain or a block scalar) and `targets: <name>: main: <path>`. */
export function shard(path: string, source: string): ManifestContent {
  const content = simpleYaml(path, source);
  if (content.description === '|' || content.description === '>' || content.description === undefined) {
    delete content.description;
    const block = /^description:\s*[|>][-+]?\s*\n((?:[ \t]+\S.*\n?)+)/m.exec(source)?.[1];
    if (block !== undefined) named(content, undefined, block.replace(/\s+/g, ' '));
  }
  const targets = /^targets:\s*\n((?:[ \t]+.*\n?|\s*\n)+)/m.exec(source)?.[1] ?? '';
  for (const match of targets.matchAll(/^[ \t]+([\w.-]+):\s*\n[ \t]+main:\s*["']?([^"'\s]+)/gm)) {
    if (match[2] !== undefined) content.entries.push({ target: match[2], via: `${path} \`targets.${match[1]}.main\`` });
  }
  return content;
}

/** A .cabal file: `name`, `synopsis`, and each `executable`'s `main-is` under its `hs-source-dirs`. */
export function cabal(path: string, source: string): ManifestContent {
  const content = empty();
  const field = (block: string, name: string): string | undefined =>
    new RegExp(`^[ \\t]*${name}:[ \\t]*(\\S[^\\n]*)`, 'im').exec(block)?.[1]?.trim();
  named(content, field(source, 'name'), field(source, 'synopsis'));
  for (const section of source.split(/^(?=\S)/m)) {
    const executable = /^executable\s+([\w.-]+)/i.exec(section)?.[1];
    const main = field(section, 'main-is');
    if (executable === undefined || main === undefined) continue;
    const dirs = field(section, 'hs-source-dirs')?.split(/[\s,]+/) ?? ['.'];
    for (const dir of dirs) {
      content.entries.push({
        target: dir === '.' || dir === '' ? main : `${dir.replace(/\/$/, '')}/${main}`,
        via: `${path} \`executable ${executable}\` main-is`,
      });
    }
  }
  return content;
}

export function simpleYaml(_path: string, source: string): ManifestContent {
  const content = empty();
  named(
    content,
    /^name:\s*["']?([^"'\n]+)["']?\s*$/m.exec(source)?.[1],
    /^description:\s*["']?([^"'\n]+)["']?\s*$/m.exec(source)?.[1],
  );
  return content;
}

/** The source directory of each target of a Package.swift (`path:`, else `Sources/<name>`). */
function swiftTargets(source: string): Map<string, string> {
  const targets = new Map<string, string>();
  const starts = [...source.matchAll(/\.(?:executableTarget|target)\(\s*name:\s*"([^"]+)"/g)];
  for (const [index, match] of starts.entries()) {
    const end = starts[index + 1]?.index ?? source.length;
    const body = source.slice(match.index, end).split(/\.(?:testTarget|plugin|binaryTarget|macro)\(/)[0] ?? '';
    const dir = /\bpath:\s*"([^"]+)"/.exec(body)?.[1];
    // A later `.target(name:)` may be a dependency reference: the first, the declaration, wins.
    if (match[1] !== undefined && !targets.has(match[1])) targets.set(match[1], dir ?? `Sources/${match[1]}`);
  }
  return targets;
}

/** Package.swift: the package name, then each product's target: an executable's `main.swift` first, then libraries. */
export function swift(path: string, source: string): ManifestContent {
  const content = empty();
  named(content, /Package\(\s*name:\s*"([^"]+)"/.exec(source)?.[1], undefined);
  const targets = swiftTargets(source);
  const products = [...source.matchAll(/\.(executable|library)\(\s*name:\s*"([^"]+)"[^)]*?targets:\s*\[\s*"([^"]+)"/g)];
  products.sort((a, b) => Number(a[1] !== 'executable') - Number(b[1] !== 'executable'));
  for (const [, kind, product, target] of products) {
    if (product === undefined || target === undefined) continue;
    const dir = targets.get(target) ?? `Sources/${target}`;
    const files =
      kind === 'executable'
        ? ['main.swift', `${target}.swift`, `${product}.swift`]
        : [`${target}.swift`, `${product}.swift`];
    for (const file of files)
      content.entries.push({ target: `${dir}/${file}`, via: `${path} \`.${kind}(${product})\`` });
  }
  return content;
}

/** mix.exs: `app:` (the OTP application, whose main module is `lib/<app>.ex`), `description:` (a literal or a module attribute). */
export function mix(path: string, source: string): ManifestContent {
  const content = empty();
  const app = /\bapp:\s*:(\w+)/.exec(source)?.[1];
  const literal = /\bdescription:\s*"([^"]+)"/.exec(source)?.[1];
  const attribute = /\bdescription:\s*@(\w+)/.exec(source)?.[1];
  const fromAttribute =
    attribute === undefined ? undefined : new RegExp(`^\\s*@${attribute}\\s+"([^"]+)"`, 'm').exec(source)?.[1];
  const fromFunction = /\bdefp?\s+description\b[^\n]*\n\s*"([^"]+)"/.exec(source)?.[1];
  named(content, app, literal ?? fromAttribute ?? fromFunction);
  if (app !== undefined) content.entries.push({ target: `lib/${app}.ex`, via: `${path} \`app: :${app}\`` });
  return content;
}

/** A .csproj/.fsproj (or a solution): named after the file, `Description`; an `Exe` starts at `Program.cs`. */
export function dotnet(path: string, source: string): ManifestContent {
  const content = empty();
  const tag = (name: string): string | undefined => new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(source)?.[1];
  const file = path.slice(path.lastIndexOf('/') + 1).replace(/\.([cf]sproj|slnx?)$/i, '');
  named(content, file, tag('Description'));
  if (/\.slnx?$/i.test(path)) content.workspace = true;
  const output = tag('OutputType');
  if (output !== undefined && /^(win)?exe$/i.test(output)) {
    for (const program of ['Program.cs', 'Program.fs', `${file}.cs`]) {
      content.entries.push({ target: program, via: `${path} \`OutputType\` ${output}` });
    }
  }
  return content;
}
