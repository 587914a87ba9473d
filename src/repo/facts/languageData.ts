/**
 * Which language a path is written in, from GitHub linguist's language data (the `linguist-languages`
 * package): extensions and exact file names, the language's type (programming, markup, data, prose) and
 * its group (TSX counts as TypeScript, as on GitHub). The data is loaded on first use, so a listing never
 * pays for it.
 *
 * Linguist settles an extension several languages claim (`.h`, `.m`, `.pl`…) by reading the file; the
 * facts never open a source file, so an ambiguous extension goes to a widely used language that claims it,
 * and `.h` is settled per repository (C++ when C++ sources outnumber C sources, see languageMix.ts).
 */

export type LanguageType = 'programming' | 'markup' | 'data' | 'prose';

export interface LanguageInfo {
  /** The name used in counts: linguist's group when the language has one (TSX -> TypeScript). */
  name: string;
  type: LanguageType;
}

export interface LanguageIndex {
  /** By lower-case extension with its dot (`.ts`), and by compound extension (`.d.ts` is not one: linguist has none). */
  byExtension: ReadonlyMap<string, LanguageInfo>;
  /** By exact file name (`Makefile`, `Dockerfile`, `CMakeLists.txt`, `Gemfile`). */
  byFilename: ReadonlyMap<string, LanguageInfo>;
}

/**
 * Widely used languages, preferred when several claim an extension. A short list of our own in the spirit
 * of linguist's "popular" list: only its order among claimants matters.
 */
const PREFERRED = [
  'C',
  'C#',
  'C++',
  'CSS',
  'F#',
  'Go',
  'HTML',
  'Java',
  'JavaScript',
  'Kotlin',
  'Markdown',
  'Objective-C',
  'PHP',
  'Perl',
  'Python',
  'R',
  'Ruby',
  'Rust',
  'SQL',
  'Shell',
  'Swift',
  'TypeScript',
  'Text',
  'TeX',
  'XML',
  'YAML',
  'JSON',
  'jq',
];

interface RawLanguage {
  name: string;
  type: LanguageType;
  group?: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}

interface Claim {
  raw: RawLanguage;
  primary: boolean;
}

function preference(claim: Claim): number {
  const index = PREFERRED.indexOf(claim.raw.name);
  return index < 0 ? PREFERRED.length : index;
}

/** 0: widely used and its primary extension; 1: its primary extension; 2: widely used; 3: neither. */
function level(claim: Claim): number {
  const preferred = preference(claim) < PREFERRED.length;
  if (claim.primary) return preferred ? 0 : 1;
  return preferred ? 2 : 3;
}

function better(a: Claim, b: Claim): number {
  return (
    level(a) - level(b) ||
    preference(a) - preference(b) ||
    (a.raw.name < b.raw.name ? -1 : a.raw.name > b.raw.name ? 1 : 0)
  );
}

function infoOf(raw: RawLanguage): LanguageInfo {
  return { name: raw.group ?? raw.name, type: raw.type };
}

/** Builds the index from linguist's records (exported for tests with records of their own). */
export function buildLanguageIndex(languages: Iterable<RawLanguage>): LanguageIndex {
  const extensionClaims = new Map<string, Claim[]>();
  const filenameClaims = new Map<string, Claim[]>();
  for (const raw of languages) {
    raw.extensions?.forEach((extension, index) => {
      const key = extension.toLowerCase();
      const claims = extensionClaims.get(key) ?? [];
      claims.push({ raw, primary: index === 0 });
      extensionClaims.set(key, claims);
    });
    for (const filename of raw.filenames ?? []) {
      const claims = filenameClaims.get(filename) ?? [];
      claims.push({ raw, primary: true });
      filenameClaims.set(filename, claims);
    }
  }
  // A tie between claimants none of which is widely used: linguist would read the file to decide; the facts
  // never do, so such an extension stays unknown (`.asc`: AGS Script's or a PGP key's primary extension).
  const settle = (claims: Map<string, Claim[]>): Map<string, LanguageInfo> =>
    new Map(
      [...claims].flatMap(([key, list]): [string, LanguageInfo][] => {
        const [best, second] = list.sort(better) as [Claim, Claim | undefined];
        const ambiguous =
          second !== undefined && level(second) === level(best) && preference(best) === PREFERRED.length;
        return ambiguous ? [] : [[key, infoOf(best.raw)]];
      }),
    );
  return { byExtension: settle(extensionClaims), byFilename: settle(filenameClaims) };
}

let loaded: Promise<LanguageIndex> | undefined;

/** linguist's data, indexed once per process. */
export function loadLanguageIndex(): Promise<LanguageIndex> {
  loaded ??= import('linguist-languages').then((module) =>
    buildLanguageIndex(Object.values(module) as unknown as RawLanguage[]),
  );
  return loaded;
}

const C_SOURCE = /\.c$/i;
const CPP_SOURCE = /\.(cc|cpp|cxx|c\+\+|hpp|hh|hxx|h\+\+|ipp|tpp)$/i;
const OBJC_SOURCE = /\.mm?$/i;

/** `.h` follows the repository: C++ when C++ sources outnumber C, Objective-C when those do. */
function headerLanguage(paths: readonly string[]): LanguageInfo {
  let c = 0;
  let cpp = 0;
  let objc = 0;
  for (const path of paths) {
    if (C_SOURCE.test(path)) c++;
    else if (CPP_SOURCE.test(path)) cpp++;
    else if (OBJC_SOURCE.test(path)) objc++;
  }
  const name = objc > c && objc > cpp ? 'Objective-C' : cpp > c ? 'C++' : 'C';
  return { name, type: 'programming' };
}

/** The language of each path of one listing, with `.h` settled for the whole listing. */
export function createPathLanguage(
  index: LanguageIndex,
  paths: readonly string[],
): (path: string) => LanguageInfo | undefined {
  let header: LanguageInfo | undefined;
  return (path) => {
    if (/\.h$/i.test(path) && !index.byFilename.has(path.slice(path.lastIndexOf('/') + 1))) {
      return (header ??= headerLanguage(paths));
    }
    return languageOfPath(index, path);
  };
}

/**
 * The language of a path by its file name, then its extension (the last one, and for `x.d.ts`-like names
 * the last two when linguist knows them). Undefined when linguist knows neither.
 */
export function languageOfPath(index: LanguageIndex, path: string): LanguageInfo | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const byName = index.byFilename.get(name);
  if (byName !== undefined) return byName;
  const lower = name.toLowerCase();
  const last = lower.lastIndexOf('.');
  if (last <= 0) return undefined;
  const previous = lower.lastIndexOf('.', last - 1);
  if (previous > 0) {
    const compound = index.byExtension.get(lower.slice(previous));
    if (compound !== undefined) return compound;
  }
  return index.byExtension.get(lower.slice(last));
}
