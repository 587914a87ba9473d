/**
 * Whole-repository facts from one listing: the language mix (files and bytes), the top-level layout with
 * roles, the manifests and what they declare, and the entry points checked against the listing. The cost
 * is one pass over the paths, a size pass bounded by {@link MAX_SIZED} (sizes.ts) and at most
 * {@link MAX_MANIFEST_READS} manifest reads, whatever the size of the tree.
 */
import { findEntryPoints } from './entryPoints.js';
import { createPathLanguage, loadLanguageIndex } from './languageData.js';
import type { SizeSample } from './languageMix.js';
import { computeLanguageMix } from './languageMix.js';
import { computeLayout } from './layout.js';
import type { DeclaredEntry, ManifestType, SourceRoot } from './manifests.js';
import { manifestTypeOf, readManifest } from './manifests.js';
import type { MainProjectHints } from './mainProject.js';
import { memberKey, memberRank, wordCounts } from './mainProject.js';
import { nameKey, shortProjectName } from './names.js';
import { pathKindOf } from './pathKinds.js';
import type { CommandFact, LanguageMix, ManifestFact, RepoFacts } from './types.js';
import { MAX_COMMANDS, MAX_MANIFESTS } from './types.js';

/** Manifests read per run: the primary ones and a few members of a workspace. */
export const MAX_MANIFEST_READS = 10;
/** Of which at most this many at the root; the rest go to the members most likely to carry the project. */
const MAX_ROOT_READS = 6;
/** Manifests are looked for this many directories deep at most (`packages/x/package.json` is 2). */
const MANIFEST_DEPTH = 2;
const NOT_PROJECT_DIRS =
  /(^|\/)(tests?|__tests__|specs?|fixtures?|testdata|examples?|_examples|demos?|samples?|playground|benchmarks?|benches|docs?|templates?|scripts?|fuzz|fuzzing|it|e2e|integration[-_]?tests?)\//i;
/**
 * A project that only serves the main one, judged by the words of its directory and file names
 * (`Foo.FuzzTests.csproj`, `Foo.OfficialPlugins.Bar/`, `plugins/x/Makefile`, `foo-benchmarks/`): never the primary.
 */
const AUXILIARY_WORDS =
  /^(tests?|testing|unittests?|integrationtests?|fuzz|fuzzing|fuzztests?|bench|benches|benchmarks?|samples?|examples?|demos?|plugins?|playground|e2e|specs?)$/i;

function isAuxiliaryProject(path: string): boolean {
  const words = path
    .replace(/\.[^./]+$/, '')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[\s/._-]+/);
  return words.some((word) => AUXILIARY_WORDS.test(word));
}

export interface FactsInput {
  /** Every listed path, relative to the summarized base, sorted. */
  paths: readonly string[];
  sizes: SizeSample;
  /** A manifest's text (base-relative path), or undefined when it cannot be read. */
  read: (paths: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  /** The sub-path's prefix (`packages/app/`), for the manifest paths quoted in `via` and `from`. Default ''. */
  prefix?: string;
}

type Found = ManifestFact & {
  type: ManifestType;
  depth: number;
  entries: DeclaredEntry[];
  roots?: SourceRoot[];
  commands: CommandFact[];
};

/** Manifest text is untrusted and unbounded: names and descriptions are flattened and clipped. */
const MAX_NAME_CHARS = 100;
const MAX_DESCRIPTION_CHARS = 300;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

const FIELD: Partial<Record<ManifestFact['kind'], string>> = {
  go: 'module',
  maven: 'artifactId',
  cmake: 'project()',
  autoconf: 'AC_INIT',
  gradle: 'rootProject.name',
};
const DESCRIPTION_FIELD: Partial<Record<ManifestFact['kind'], string>> = { gem: 'summary' };

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

function depthOf(path: string): number {
  let depth = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) depth++;
  return depth;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Manifest files worth reading: shallow, outside tests/examples/docs, vendored and generated trees. */
function manifestCandidates(paths: readonly string[]): { path: string; type: ManifestType; depth: number }[] {
  const found: { path: string; type: ManifestType; depth: number }[] = [];
  for (const path of paths) {
    const depth = depthOf(path);
    if (depth > MANIFEST_DEPTH) continue;
    const type = manifestTypeOf(path);
    if (type === undefined || NOT_PROJECT_DIRS.test(path) || isAuxiliaryProject(path)) continue;
    const kind = pathKindOf(path);
    if (kind === 'vendored' || kind === 'generated') continue;
    found.push({ path, type, depth });
  }
  return found.sort((a, b) => a.depth - b.depth || a.type.rank - b.type.rank || compare(a.path, b.path));
}

function languageMatches(manifest: { language: string }, language: string | undefined): boolean {
  if (language === undefined) return false;
  if (manifest.language === language) return true;
  const js = ['JavaScript', 'TypeScript'];
  const jvm = ['Java', 'Kotlin', 'Groovy', 'Scala'];
  const native = ['C', 'C++', 'Objective-C'];
  return [js, jvm, native].some((family) => family.includes(manifest.language) && family.includes(language));
}

/**
 * The root manifests first (the main language's, lowest rank), then the member that carries the project (see
 * mainProject.ts: `packages/vite` of `vite-monorepo`, `ktlint-cli` of `ktlint-root`), then the others
 * shallowest first, the one whose name starts its siblings' names before them (`axum` beside `axum-core`).
 */
function orderManifests(found: Found[], mix: LanguageMix, hints: MainProjectHints): Found[] {
  const language = mix.main?.of === 'code' ? mix.main.language : undefined;
  const prefixOfSiblings = (manifest: Found): boolean => {
    const own = manifest.name?.toLowerCase();
    return (
      own !== undefined &&
      found.some((other) => {
        const name = other.name?.toLowerCase();
        return other !== manifest && name !== undefined && name.startsWith(own) && /^[-_]/.test(name.slice(own.length));
      })
    );
  };
  const rank = (manifest: Found): number => {
    const member = memberRank(manifest.name ?? memberKey(manifest.path), hints);
    return member === 3 && prefixOfSiblings(manifest) ? 2.9 : member;
  };
  const score = (manifest: Found): number =>
    (manifest.depth === 0 ? 0 : rank(manifest) < 3 ? 50 + rank(manifest) * 10 : 100 + manifest.depth * 100) +
    (languageMatches(manifest, language) ? 0 : 20) +
    (manifest.kind === 'make' ? 10 : 0) +
    manifest.type.rank;
  return [...found].sort((a, b) => score(a) - score(b) || compare(a.path, b.path));
}

function isRootReadme(path: string): boolean {
  return !path.includes('/') && /^readme(\.(md|markdown|rst|txt|adoc))?$/i.test(path);
}

export async function computeRepoFacts(input: FactsInput): Promise<RepoFacts> {
  const index = await loadLanguageIndex();
  const { paths } = input;
  const listed = new Set(paths);
  const languageOf = createPathLanguage(index, paths);
  const mix = computeLanguageMix(languageOf, paths, input.sizes);
  const layout = computeLayout(languageOf, paths);

  // The root's manifests and README first, then the members the root names, up to the read budget.
  const all = manifestCandidates(paths);
  const atRoot = all.filter((candidate) => candidate.depth === 0).slice(0, MAX_ROOT_READS);
  const readme = paths.find(isRootReadme);
  const rootTexts = await input.read([...atRoot.map((candidate) => candidate.path), ...(readme ? [readme] : [])]);
  const rootNames = atRoot.flatMap(({ path }) => readManifest(path, rootTexts.get(path) ?? '').name ?? []);
  const readmeText = readme === undefined ? undefined : rootTexts.get(readme);
  const hints: MainProjectHints = { rootNames, ...(readmeText !== undefined && { readme: wordCounts(readmeText) }) };
  const members = all
    .filter((candidate) => candidate.depth > 0)
    .map((candidate) => ({ candidate, rank: memberRank(memberKey(candidate.path), hints) }))
    .sort(
      (a, b) => a.rank - b.rank || a.candidate.depth - b.candidate.depth || compare(a.candidate.path, b.candidate.path),
    )
    .slice(0, MAX_MANIFEST_READS - atRoot.length)
    .map(({ candidate }) => candidate);
  const memberTexts = await input.read(members.map((candidate) => candidate.path));
  const candidates = [...atRoot, ...members];
  const texts = new Map([...rootTexts, ...memberTexts]);
  const found: Found[] = candidates.map(({ path, type, depth }) => {
    const declared = readManifest(`${input.prefix ?? ''}${path}`, texts.get(path) ?? '');
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    const language =
      type.kind === 'npm' && (listed.has(`${dir}tsconfig.json`) || mix.main?.language === 'TypeScript')
        ? 'TypeScript'
        : type.language;
    return {
      path,
      kind: type.kind,
      language,
      ...(declared.name !== undefined && { name: clip(declared.name, MAX_NAME_CHARS) }),
      ...(declared.description !== undefined && { description: clip(declared.description, MAX_DESCRIPTION_CHARS) }),
      ...(declared.workspace === true && { workspace: true }),
      type,
      depth,
      entries: declared.entries,
      ...(declared.roots !== undefined && { roots: declared.roots }),
      commands: declared.commands,
    };
  });
  const ordered = orderManifests(found, mix, hints);
  const primary = ordered[0];
  // The name and description come from the primary manifest's directory (setup.py may leave them to setup.cfg);
  // a workspace root that names or describes nothing but the monorepo leaves them to its main member.
  const beside = ordered.filter((manifest) => primary !== undefined && dirOf(manifest.path) === dirOf(primary.path));
  const main = ordered.find(
    (manifest) => manifest.depth > 0 && memberRank(manifest.name ?? memberKey(manifest.path), hints) < 3,
  );
  const rootNamed = beside.find((manifest) => manifest.name !== undefined);
  // The main package of a workspace root names the project (`vite`, not `@vitejs/vite-monorepo`).
  const sameName =
    main?.name !== undefined &&
    rootNamed?.name !== undefined &&
    (rootNamed.workspace === true || shortProjectName(rootNamed.name) !== rootNamed.name) &&
    nameKey(shortProjectName(main.name)) === nameKey(shortProjectName(rootNamed.name));
  const named = sameName ? main : (rootNamed ?? (primary?.depth === 0 ? main : undefined));
  const described =
    beside.find(
      (manifest) => manifest.description !== undefined && !/\b(mono-?repo|workspace)\b/i.test(manifest.description),
    ) ??
    (primary?.depth === 0 && main?.description !== undefined ? main : undefined) ??
    beside.find((manifest) => manifest.description !== undefined);
  const projectName = named?.name;

  const leading = ordered.filter(
    (manifest) => manifest.depth === 0 || manifest === main || dirOf(manifest.path) === dirOf(main?.path ?? '/'),
  ).length;
  const entryPoints = findEntryPoints({
    paths,
    listed,
    languageOf,
    manifests: ordered,
    leading,
    ...(mix.main?.of === 'code' && { language: mix.main.language }),
    ...(projectName !== undefined && { projectName }),
  });
  const commands = ordered
    .flatMap((manifest) => (manifest.depth === 0 ? manifest.commands : []))
    .slice(0, MAX_COMMANDS);
  const project: RepoFacts['project'] = {};
  if (named?.name !== undefined) {
    project.name = { value: named.name, from: `${input.prefix ?? ''}${named.path} ${FIELD[named.kind] ?? 'name'}` };
  }
  if (described?.description !== undefined) {
    project.description = {
      value: described.description,
      from: `${input.prefix ?? ''}${described.path} ${DESCRIPTION_FIELD[described.kind] ?? 'description'}`,
    };
  }

  return {
    files: paths.length,
    mix,
    layout,
    manifests: ordered.slice(0, MAX_MANIFESTS).map(({ path, kind, language, name, description, workspace }) => ({
      path,
      kind,
      language,
      ...(name !== undefined && { name }),
      ...(description !== undefined && { description }),
      ...(workspace === true && { workspace }),
    })),
    entryPoints,
    commands,
    project,
  };
}

/**
 * The facts of a sub-path with every path made relative to the repository root again (they are computed
 * relative to the sub-path, where `docs/` and `src/` mean what they say), as the candidates and picks are.
 */
export function rebaseFacts(facts: RepoFacts, prefix: string): RepoFacts {
  if (prefix === '') return facts;
  return {
    ...facts,
    layout: {
      ...facts.layout,
      directories: facts.layout.directories.map((entry) => ({ ...entry, dir: `${prefix}${entry.dir}` })),
    },
    manifests: facts.manifests.map((manifest) => ({ ...manifest, path: `${prefix}${manifest.path}` })),
    entryPoints: facts.entryPoints.map((entry) => ({ ...entry, path: `${prefix}${entry.path}` })),
  };
}
