/** Whole-repository facts: computed from the listing, a bounded size pass and a handful of manifests. */

export interface LanguageShare {
  language: string;
  files: number;
  /** Bytes, measured or estimated (see {@link LanguageMix.bytes}). */
  bytes: number;
}

export interface LanguageMix {
  /**
   * Code: programming and markup languages outside vendored, generated and documentation files — what
   * GitHub's language bar counts. Largest by bytes first, at most {@link MAX_LANGUAGES}.
   */
  languages: LanguageShare[];
  /**
   * The first of `languages` that is not a build-script language (Makefile, CMake…) unless only those are code;
   * without code, the main language of the documentation (`Markdown`).
   */
  main?: { language: string; of: 'code' | 'documentation' };
  /** Files counted apart, as linguist does, and the rest. */
  documentation: { files: number; languages: string[] };
  vendored: number;
  generated: number;
  /** Data and configuration (JSON, YAML, TOML…) and files of no known language. */
  other: number;
  /** `measured`: every listed file's size was read; `estimated`: from an evenly spread sample of `sampled` files. */
  bytes: 'measured' | 'estimated';
  sampled: number;
}

export type DirectoryRole =
  | 'source'
  | 'tests'
  | 'docs'
  | 'examples'
  | 'ci'
  | 'build'
  | 'scripts'
  | 'packages'
  | 'vendored'
  | 'generated'
  | 'assets'
  | 'config'
  | 'other';

export interface LayoutEntry {
  /** A top-level directory with a trailing `/`, relative to the base. */
  dir: string;
  files: number;
  role: DirectoryRole;
  /** The directory's main code language, when it has code. */
  language?: string;
}

export interface Layout {
  /** Largest first, at most {@link MAX_LAYOUT} entries. */
  directories: LayoutEntry[];
  /** Directories left out and their files. */
  rest: { dirs: number; files: number };
  /** Files directly in the base. */
  rootFiles: number;
}

export type ManifestKind =
  | 'npm'
  | 'python'
  | 'cargo'
  | 'go'
  | 'gem'
  | 'composer'
  | 'maven'
  | 'gradle'
  | 'cmake'
  | 'make'
  | 'autoconf'
  | 'meson'
  | 'dotnet'
  | 'swift'
  | 'dart'
  | 'elixir'
  | 'crystal'
  | 'haskell'
  | 'deno';

export interface ManifestFact {
  /** Relative to the base. */
  path: string;
  kind: ManifestKind;
  /** The language the manifest builds. */
  language: string;
  /** The project's name as the manifest declares it (package name, module path, artifact…). */
  name?: string;
  description?: string;
  /** Declares sub-projects (npm/cargo workspaces, maven modules, …). */
  workspace?: boolean;
}

export interface EntryPointFact {
  /** An existing listed path (relative to the base), never a path absent from the listing. */
  path: string;
  /** Where it was declared or how it was found, e.g. ``package.json `bin.ky` `` or `Go main package`. */
  via: string;
  /** The declared target when it differs from `path` (a build output mapped to its source). */
  declared?: string;
}

export interface CommandFact {
  /** e.g. `make install`. */
  command: string;
  via: string;
}

export interface RepoFacts {
  /** Files listed under the base. */
  files: number;
  mix: LanguageMix;
  layout: Layout;
  /** Shallowest first; the primary manifest first of all. */
  manifests: ManifestFact[];
  entryPoints: EntryPointFact[];
  commands: CommandFact[];
  /** Name and description from the primary manifest, when it declares them. */
  project: { name?: { value: string; from: string }; description?: { value: string; from: string } };
}

export const MAX_LANGUAGES = 8;
export const MAX_LAYOUT = 12;
export const MAX_MANIFESTS = 8;
export const MAX_ENTRY_POINTS = 6;
export const MAX_COMMANDS = 6;
