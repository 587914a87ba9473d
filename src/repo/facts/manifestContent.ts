/** What a manifest declares, as the readers (manifests.ts, conventionManifests.ts) return it, and their helpers. */

/** A declared entry point before it is checked: a path, or a Python module reference. */
export interface DeclaredEntry {
  target: string;
  via: string;
  module?: boolean;
}

/** A namespace mapped to a source directory (Composer `autoload` `psr-4`/`psr-0`), relative to the manifest. */
export interface SourceRoot {
  namespace: string;
  dir: string;
}

export interface ManifestContent {
  name?: string;
  description?: string;
  workspace?: boolean;
  entries: DeclaredEntry[];
  /** Namespace roots, where the language names its main class by convention rather than in the manifest. */
  roots?: SourceRoot[];
  /** Make targets, npm scripts: commands the project declares. */
  commands: { command: string; via: string }[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function empty(): ManifestContent {
  return { entries: [], commands: [] };
}

export function named(content: ManifestContent, name: unknown, description: unknown): void {
  const n = text(name);
  const d = text(description);
  if (n !== undefined) content.name ??= n;
  if (d !== undefined) content.description ??= d;
}
