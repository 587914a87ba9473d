/**
 * The top-level layout of a listing: each top directory with its file count, a role (source, tests, docs,
 * examples, CI, build config…) and its main code language. The role comes from the directory's name first
 * (`test/`, `docs/`, `.github/`), then from what it holds: a directory of code is `source`.
 */
import type { LanguageInfo } from './languageData.js';
import { isGeneratedPath, isVendoredPath } from './pathKinds.js';
import type { DirectoryRole, Layout, LayoutEntry } from './types.js';
import { MAX_LAYOUT } from './types.js';

const ROLES: readonly [DirectoryRole, RegExp][] = [
  [
    'tests',
    /^(tests?|__tests__|specs?|e2e|testing|testdata|test[-_]?suite|integration[-_]tests?|t|benches|benchmarks?|bench)$/i,
  ],
  ['docs', /^(docs?|documentation|man|site|website|book|guides?|wiki|media)$/i],
  ['examples', /^(examples?|_examples|demos?|samples?|playground|tutorials?|starter)$/i],
  ['ci', /^(\.github|\.circleci|\.gitlab|\.buildkite|\.ci|ci|\.travis|\.azure-pipelines|\.woodpecker)$/i],
  [
    'build',
    /^(cmake|\.cargo|gradle|\.mvn|build[-_]?(tools|support|config)?|buildscripts?|m4|config|\.config|packaging|dist[-_]?tools|docker|\.devcontainer|nix)$/i,
  ],
  ['scripts', /^(scripts?|tools?|hack|utils?|bin|contrib|misc|extra|shell)$/i],
  ['packages', /^(packages|crates|apps|libs|modules|plugins|components|workspaces|services)$/i],
  ['assets', /^(assets|static|public|images?|img|icons?|fonts|resources|res)$/i],
  ['config', /^(\.vscode|\.idea|\.husky|\.changeset|\.yarn|\.vitepress|\.storybook|\.cargo-husky)$/i],
];

interface Group {
  files: number;
  code: number;
  languages: Map<string, number>;
}

function roleOf(name: string, group: Group): DirectoryRole {
  if (isVendoredPath(`${name}/x`)) return 'vendored';
  if (isGeneratedPath(`${name}/x`)) return 'generated';
  for (const [role, pattern] of ROLES) if (pattern.test(name)) return role;
  return group.code * 2 >= group.files ? 'source' : 'other';
}

function mainLanguage(group: Group): string | undefined {
  let best: [string, number] | undefined;
  for (const entry of group.languages) {
    if (best === undefined || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  return best?.[0];
}

/** `paths` relative to the summarized base. */
export function computeLayout(
  languageOf: (path: string) => LanguageInfo | undefined,
  paths: readonly string[],
): Layout {
  const groups = new Map<string, Group>();
  let rootFiles = 0;
  for (const path of paths) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      rootFiles++;
      continue;
    }
    const name = path.slice(0, slash);
    let group = groups.get(name);
    if (group === undefined) groups.set(name, (group = { files: 0, code: 0, languages: new Map() }));
    group.files++;
    const info = languageOf(path);
    if (info !== undefined && (info.type === 'programming' || info.type === 'markup')) {
      group.code++;
      group.languages.set(info.name, (group.languages.get(info.name) ?? 0) + 1);
    }
  }
  const ranked = [...groups].sort(([a, x], [b, y]) => y.files - x.files || (a < b ? -1 : a > b ? 1 : 0));
  const directories = ranked.slice(0, MAX_LAYOUT).map(([name, group]): LayoutEntry => {
    const language = mainLanguage(group);
    return {
      dir: `${name}/`,
      files: group.files,
      role: roleOf(name, group),
      ...(language !== undefined && { language }),
    };
  });
  const hidden = ranked.slice(MAX_LAYOUT);
  return {
    directories,
    rest: { dirs: hidden.length, files: hidden.reduce((sum, [, group]) => sum + group.files, 0) },
    rootFiles,
  };
}
