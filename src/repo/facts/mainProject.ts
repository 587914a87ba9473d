/**
 * Which sub-project carries a multi-project tree: the member of a workspace (npm/pnpm packages, Cargo crates,
 * Gradle modules, .NET projects) that the root manifest and the root README name. Used twice: to choose which
 * members' manifests are worth reading (only their directory names are known then), and to put the main member
 * first once they are read. Helper packages (`create-<name>-app`) and members the README never mentions lose.
 */
import { nameKey, shortProjectName } from './names.js';

/** Words a CLI or application member adds to the project's name (`ktlint-cli`, `jadx-gui`, `foo-app`). */
const MAIN_SUFFIX = /^(cli|app|main|core|server|bin|cmd|gui)$/;
/** Packages that create or scaffold the project rather than being it. */
const HELPER = /^(create|init|scaffold|template|generator)[-_]|[-_](template|starter|scaffold)$/i;

/** The directory name a member is known by before its manifest is read (`packages/vue/package.json` -> `vue`). */
export function memberKey(path: string): string {
  const segments = path.split('/');
  const dir = segments[segments.length - 2];
  return dir ?? segments[segments.length - 1] ?? '';
}

/** How often each word stands in a README, lower case (`vue` in `npm/v/vue.svg`, `vue-compat` apart). */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().split(/[^\w-]+/)) {
    if (word.length >= 2) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

export interface MainProjectHints {
  /** The names the root manifests declare (`@vitejs/vite-monorepo`, `ktlint-root`, `kiota`). */
  rootNames: readonly string[];
  /** The root README's words (see {@link wordCounts}), if there is one. */
  readme?: ReadonlyMap<string, number>;
}

/**
 * Lower is likelier the main member: named like the root project (0), its name plus a CLI/app/core word (1), the
 * one the README names most (2, by count), anything else (3); a helper package (`create-vite`) is last.
 */
export function memberRank(name: string, hints: MainProjectHints): number {
  const short = shortProjectName(name);
  const key = nameKey(short);
  if (HELPER.test(short)) return 9;
  const roots = hints.rootNames.map((root) => nameKey(shortProjectName(root))).filter((root) => root !== '');
  if (roots.includes(key)) return 0;
  if (roots.some((root) => key.startsWith(root) && MAIN_SUFFIX.test(key.slice(root.length)))) return 1;
  const count = hints.readme?.get(short.toLowerCase()) ?? 0;
  return count > 0 ? 3 - Math.min(count, 20) / 21 : 3;
}
