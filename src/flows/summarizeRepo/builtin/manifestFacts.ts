/**
 * What the built-in model reads from manifests: name, description and declared entry points.
 * Tolerant by design: a manifest may be truncated, so JSON falls back to a line scan and TOML is
 * read line by line (only simple `key = "value"` pairs).
 */

export interface EntryPoint {
  /** A path or a command, as declared. */
  target: string;
  /** Where it was declared, e.g. ``package.json `main` ``. */
  via: string;
}

export interface ManifestFacts {
  name?: string;
  description?: string;
  entryPoints: EntryPoint[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonStringField(content: string, field: string): string | undefined {
  const match = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(content);
  if (match?.[1] === undefined) return undefined;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1];
  }
}

export function packageJsonFacts(path: string, content: string): ManifestFacts {
  const facts: ManifestFacts = { entryPoints: [] };
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    // Truncated or invalid: take the first occurrences, which are the top-level ones in practice.
    const name = jsonStringField(content, 'name');
    const description = jsonStringField(content, 'description');
    const main = jsonStringField(content, 'main');
    if (name !== undefined) facts.name = name;
    if (description !== undefined) facts.description = description;
    if (main !== undefined) facts.entryPoints.push({ target: main, via: `${path} \`main\`` });
    return facts;
  }
  if (!isRecord(data)) return facts;
  if (typeof data.name === 'string') facts.name = data.name;
  if (typeof data.description === 'string') facts.description = data.description;
  if (typeof data.main === 'string') facts.entryPoints.push({ target: data.main, via: `${path} \`main\`` });
  if (typeof data.bin === 'string') facts.entryPoints.push({ target: data.bin, via: `${path} \`bin\`` });
  if (isRecord(data.bin)) {
    for (const [command, target] of Object.entries(data.bin)) {
      if (typeof target === 'string') facts.entryPoints.push({ target, via: `${path} \`bin.${command}\`` });
    }
  }
  if (isRecord(data.scripts) && typeof data.scripts.start === 'string') {
    facts.entryPoints.push({ target: data.scripts.start, via: `${path} \`scripts.start\`` });
  }
  return facts;
}

function tomlString(raw: string): string | undefined {
  const value = raw.trim();
  const triple = /^("""|''')(.*?)\1/.exec(value);
  if (triple?.[2] !== undefined) return triple[2];
  const double = /^"((?:[^"\\]|\\.)*)"/.exec(value);
  if (double?.[1] !== undefined) {
    try {
      return JSON.parse(`"${double[1]}"`) as string;
    } catch {
      return double[1];
    }
  }
  return /^'([^']*)'/.exec(value)?.[1];
}

/** Reads `[project]`/`[tool.poetry]` (pyproject.toml) or `[package]`/`[[bin]]` (Cargo.toml). */
export function tomlFacts(path: string, content: string): ManifestFacts {
  const facts: ManifestFacts = { entryPoints: [] };
  const identity = new Set(['project', 'tool.poetry', 'package']);
  const scripts = new Set(['project.scripts', 'tool.poetry.scripts']);
  let section = '';
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header?.[1] !== undefined) {
      section = header[1];
      continue;
    }
    const pair = /^("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (pair?.[1] === undefined || pair[2] === undefined) continue;
    const key = pair[1].replace(/^["']|["']$/g, '');
    const value = tomlString(pair[2]);
    if (value === undefined) continue;
    if (identity.has(section) && key === 'name') facts.name ??= value;
    else if (identity.has(section) && key === 'description') facts.description ??= value;
    else if (scripts.has(section)) facts.entryPoints.push({ target: value, via: `${path} \`[${section}] ${key}\`` });
    else if (section === 'bin' && key === 'path') facts.entryPoints.push({ target: value, via: `${path} \`[[bin]]\`` });
  }
  return facts;
}

/** Reads literal `name=` and `description=` arguments of `setup(...)`. */
export function setupPyFacts(_path: string, content: string): ManifestFacts {
  const facts: ManifestFacts = { entryPoints: [] };
  const name = /\bname\s*=\s*["']([^"'\n]+)["']/.exec(content)?.[1];
  const description = /\bdescription\s*=\s*["']([^"'\n]+)["']/.exec(content)?.[1];
  if (name !== undefined) facts.name = name;
  if (description !== undefined) facts.description = description;
  return facts;
}

const READERS: Readonly<Record<string, (path: string, content: string) => ManifestFacts>> = {
  'package.json': packageJsonFacts,
  'pyproject.toml': tomlFacts,
  'cargo.toml': tomlFacts,
  'setup.py': setupPyFacts,
};

/** Manifests the built-in model understands, in the order their `name` is preferred. */
export const MANIFEST_PRIORITY: readonly string[] = Object.keys(READERS);

/** Facts from a manifest file, or undefined when the file is not a manifest we read. */
export function manifestFacts(path: string, content: string): ManifestFacts | undefined {
  const base = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  return READERS[base]?.(path, content);
}
