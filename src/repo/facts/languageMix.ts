/**
 * The language mix of a whole listing, by files and bytes, counted as GitHub's linguist counts it: only
 * programming and markup languages, vendored, generated and documentation files apart. Sizes come from the
 * size pass (sizes.ts): all of them on an ordinary tree, an evenly spread sample on a large one, in which
 * case each language's bytes are its file count times its sampled mean size.
 */
import type { LanguageInfo } from './languageData.js';
import { pathKindOf } from './pathKinds.js';
import type { LanguageMix, LanguageShare } from './types.js';
import { MAX_LANGUAGES } from './types.js';

export interface SizeSample {
  /** Bytes by path, for the paths whose size was read. */
  sizes: ReadonlyMap<string, number>;
  /** Whether every path's size was read. */
  complete: boolean;
}

interface Tally {
  files: number;
  sampledFiles: number;
  sampledBytes: number;
}

/**
 * Languages of build scripts: counted like linguist counts them, but the main language only when nothing
 * else is code (a tiny Rust crate with a large Makefile is still a Rust project).
 */
const BUILD_LANGUAGES: ReadonlySet<string> = new Set([
  'Makefile',
  'CMake',
  'M4',
  'M4Sugar',
  'Meson',
  'Dockerfile',
  'Starlark',
  'Nix',
  'Just',
]);

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function add(tallies: Map<string, Tally>, language: string, size: number | undefined): void {
  const tally = tallies.get(language) ?? { files: 0, sampledFiles: 0, sampledBytes: 0 };
  tally.files++;
  if (size !== undefined) {
    tally.sampledFiles++;
    tally.sampledBytes += size;
  }
  tallies.set(language, tally);
}

/** Bytes of a language: exact when every size is known, else files × its sampled mean (or the overall mean). */
function bytesOf(tally: Tally, complete: boolean, overallMean: number): number {
  if (complete) return tally.sampledBytes;
  const mean = tally.sampledFiles > 0 ? tally.sampledBytes / tally.sampledFiles : overallMean;
  return Math.round(tally.files * mean);
}

/** `paths` relative to the summarized base; `sample` keyed the same way. */
export function computeLanguageMix(
  languageOf: (path: string) => LanguageInfo | undefined,
  paths: readonly string[],
  sample: SizeSample,
): LanguageMix {
  const code = new Map<string, Tally>();
  const docs = new Map<string, Tally>();
  let vendored = 0;
  let generated = 0;
  let other = 0;
  let sampledBytes = 0;
  for (const path of paths) {
    const size = sample.sizes.get(path);
    if (size !== undefined) sampledBytes += size;
    const kind = pathKindOf(path);
    if (kind === 'vendored') vendored++;
    else if (kind === 'generated') generated++;
    else {
      const info = kind === 'config' ? undefined : languageOf(path);
      if (kind === 'documentation') add(docs, info?.name ?? 'Text', size);
      else if (info !== undefined && (info.type === 'programming' || info.type === 'markup'))
        add(code, info.name, size);
      else other++;
    }
  }
  const overallMean = sample.sizes.size > 0 ? sampledBytes / sample.sizes.size : 0;
  const shares = (tallies: Map<string, Tally>): LanguageShare[] =>
    [...tallies]
      .map(([language, tally]) => ({
        language,
        files: tally.files,
        bytes: bytesOf(tally, sample.complete, overallMean),
      }))
      .sort((a, b) => b.bytes - a.bytes || b.files - a.files || compare(a.language, b.language));
  const languages = shares(code);
  const documentation = shares(docs);
  const first = languages.find((share) => !BUILD_LANGUAGES.has(share.language)) ?? languages[0] ?? documentation[0];
  return {
    languages: languages.slice(0, MAX_LANGUAGES),
    ...(first !== undefined && {
      main: { language: first.language, of: languages.length > 0 ? 'code' : 'documentation' },
    }),
    documentation: {
      files: documentation.reduce((sum, share) => sum + share.files, 0),
      languages: documentation.slice(0, 3).map((share) => share.language),
    },
    vendored,
    generated,
    other,
    bytes: sample.complete ? 'measured' : 'estimated',
    sampled: sample.sizes.size,
  };
}
