/**
 * The directory outline of a listing: the top directories below the base with their file counts and main
 * languages, and the largest sub-directories of the largest ones. It costs one pass over the paths and its size
 * does not grow with the repository: the pick prompt shows the shape of 100 or 100,000 files in a few lines.
 */
import { languageOf } from './rank.js';
import type { OutlineEntry } from './types.js';

export interface OutlineOptions {
  /** Top directories shown (the largest first). Default 12. */
  maxTop?: number;
  /** How many of the largest top directories also show sub-directories. Default 4. */
  expandTop?: number;
  /**
   * Sub-directories shown for each expanded top directory. Default: 12 shared by the expanded ones, at least 3
   * each — a monorepo whose files all sit in `packages/` shows 12 of its packages.
   */
  maxSub?: number;
}

interface Group {
  files: number;
  languages: Map<string, number>;
  subs?: Map<string, Group>;
}

const MAX_LANGUAGES = 3;

function newGroup(withSubs: boolean): Group {
  return withSubs ? { files: 0, languages: new Map(), subs: new Map() } : { files: 0, languages: new Map() };
}

function count(group: Group, language: string | undefined): void {
  group.files++;
  if (language !== undefined) group.languages.set(language, (group.languages.get(language) ?? 0) + 1);
}

function bySize<T extends { files: number }>(entries: [string, T][]): [string, T][] {
  return entries.sort(([a, x], [b, y]) => y.files - x.files || (a < b ? -1 : a > b ? 1 : 0));
}

function entryOf(dir: string, group: Group, depth: number): OutlineEntry {
  const languages = bySize(
    [...group.languages.entries()].map(([language, files]) => [language, { files }] as [string, { files: number }]),
  )
    .slice(0, MAX_LANGUAGES)
    .map(([language, { files }]) => ({ language, files }));
  return { dir, files: group.files, languages, depth };
}

/** The outline of `paths` (root-relative, all below `base`). Deterministic for a given set of paths. */
export function buildOutline(
  paths: readonly string[],
  base: string,
  options: OutlineOptions = {},
): { entries: OutlineEntry[]; rest: { dirs: number; files: number } } {
  const maxTop = options.maxTop ?? 12;
  const expandTop = options.expandTop ?? 4;
  const maxSubOption = options.maxSub;
  const prefix = base === '' ? '' : `${base}/`;
  const top = new Map<string, Group>();
  const loose = newGroup(false);
  for (const path of paths) {
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    const language = languageOf(path);
    const slash = relative.indexOf('/');
    if (slash < 0) {
      count(loose, language);
      continue;
    }
    const name = relative.slice(0, slash);
    let group = top.get(name);
    if (group === undefined) top.set(name, (group = newGroup(true)));
    count(group, language);
    const next = relative.indexOf('/', slash + 1);
    if (next > 0 && group.subs !== undefined) {
      const subName = relative.slice(slash + 1, next);
      let sub = group.subs.get(subName);
      if (sub === undefined) group.subs.set(subName, (sub = newGroup(false)));
      count(sub, language);
    }
  }

  const ranked = bySize([...top.entries()]);
  const shown = ranked.slice(0, maxTop);
  const expandable = shown.slice(0, expandTop).filter(([, group]) => (group.subs?.size ?? 0) >= 2).length;
  const maxSub = maxSubOption ?? Math.max(3, Math.floor(12 / Math.max(1, expandable)));
  const entries: OutlineEntry[] = [];
  shown.forEach(([name, group], index) => {
    entries.push(entryOf(`${prefix}${name}/`, group, 1));
    if (index >= expandTop || group.subs === undefined || group.subs.size < 2) return;
    for (const [subName, sub] of bySize([...group.subs.entries()]).slice(0, maxSub)) {
      entries.push(entryOf(`${prefix}${name}/${subName}/`, sub, 2));
    }
  });
  if (loose.files > 0) entries.push(entryOf('', loose, 1));
  const hidden = ranked.slice(maxTop);
  return { entries, rest: { dirs: hidden.length, files: hidden.reduce((sum, [, group]) => sum + group.files, 0) } };
}
