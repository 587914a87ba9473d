import { isEntryPointPath, isReadmePath, languageOf } from '../../../repo/rank.js';
import { readHeader } from './prompt.js';
import { MANIFEST_PRIORITY, manifestFacts } from './manifestFacts.js';
import type { EntryPoint, ManifestFacts } from './manifestFacts.js';
import { readmeFacts } from './readmeFacts.js';

/**
 * Parsing half of the built-in summary: the `<<<FILE path="…" bytes=… truncated=…>>>` blocks of the
 * summary prompt, and the facts extracted from them. Deterministic: facts follow the file order.
 */

export interface FileBlock {
  path: string;
  bytes?: number;
  /** Either the prompt said so, or the block had no `<<<END FILE>>>`. */
  truncated: boolean;
  content: string;
}

export interface SummaryFacts {
  repository?: string;
  audience?: string;
  name?: { value: string; from: string };
  purpose?: { value: string; from: string };
  languages: { language: string; files: number }[];
  directories: { name: string; files: number }[];
  rootFiles: string[];
  entryPoints: EntryPoint[];
  files: FileBlock[];
}

const OPEN = /^<<<FILE\b(.*)>>>\s*$/;
const END = /^<<<END FILE>>>\s*$/;

export function hasFileBlocks(text: string): boolean {
  return /^<<<FILE\b.*>>>\s*$/m.test(text);
}

/** Servers write the path as is; only an escaped quote or backslash is undone. */
function unquote(raw: string): string {
  return raw.replace(/\\(["\\])/g, '$1');
}

function openBlock(attributes: string): FileBlock | undefined {
  const quoted = /\bpath="((?:[^"\\]|\\.)*)"/.exec(attributes)?.[1];
  const path = quoted !== undefined ? unquote(quoted) : /\bpath=(\S+)/.exec(attributes)?.[1];
  if (path === undefined || path === '') return undefined;
  const bytes = /\bbytes="?(\d+)/.exec(attributes)?.[1];
  const truncated = /\btruncated="?true\b/i.test(attributes);
  return { path, ...(bytes !== undefined ? { bytes: Number(bytes) } : {}), truncated, content: '' };
}

/** Splits the prompt into its own text (outside the blocks) and the file blocks. */
export function parseFileBlocks(text: string): { prompt: string; blocks: FileBlock[] } {
  const promptLines: string[] = [];
  const blocks: FileBlock[] = [];
  let current: { block: FileBlock | undefined; lines: string[] } | undefined;
  const close = (complete: boolean): void => {
    if (current?.block !== undefined) {
      blocks.push({
        ...current.block,
        truncated: current.block.truncated || !complete,
        content: current.lines.join('\n'),
      });
    }
    current = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    const open = OPEN.exec(line);
    if (open !== null && !END.test(line)) {
      close(false);
      current = { block: openBlock(open[1] ?? ''), lines: [] };
    } else if (current !== undefined && END.test(line)) {
      close(true);
    } else if (current !== undefined) {
      current.lines.push(line);
    } else {
      promptLines.push(line);
    }
  }
  close(false);
  return { prompt: promptLines.join('\n'), blocks };
}

function segmentsOf(path: string): string[] {
  return path.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
}

function baseName(path: string): string {
  return (segmentsOf(path).pop() ?? '').toLowerCase();
}

/** Shallowest first, then by manifest priority, then by path. */
function shallowFirst(a: FileBlock, b: FileBlock): number {
  const depth = segmentsOf(a.path).length - segmentsOf(b.path).length;
  const priority = MANIFEST_PRIORITY.indexOf(baseName(a.path)) - MANIFEST_PRIORITY.indexOf(baseName(b.path));
  return depth || priority || compareText(a.path, b.path);
}

function counted(names: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Code-unit order: locale independent, so output is the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byCountThenName(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
}

export function collectFacts(text: string): SummaryFacts {
  const { prompt, blocks } = parseFileBlocks(text);
  const facts: SummaryFacts = {
    ...readHeader(prompt),
    languages: [],
    directories: [],
    rootFiles: [],
    entryPoints: [],
    files: blocks,
  };

  const manifests = blocks
    .filter((block) => MANIFEST_PRIORITY.includes(baseName(block.path)))
    .sort(shallowFirst)
    .map((block): [FileBlock, ManifestFacts] => [
      block,
      manifestFacts(block.path, block.content) ?? { entryPoints: [] },
    ]);
  for (const [block, manifest] of manifests) {
    if (manifest.name !== undefined && manifest.name.trim() !== '') {
      facts.name ??= { value: manifest.name.trim(), from: `${block.path} name` };
    }
    if (manifest.description !== undefined && manifest.description.trim() !== '') {
      facts.purpose ??= { value: manifest.description.trim(), from: `${block.path} description` };
    }
    facts.entryPoints.push(...manifest.entryPoints);
  }

  const readme = blocks.filter((block) => isReadmePath(block.path)).sort(shallowFirst)[0];
  if (readme !== undefined) {
    const { heading, paragraph } = readmeFacts(readme.content);
    if (heading !== undefined) facts.name ??= { value: heading, from: `${readme.path} heading` };
    if (paragraph !== undefined) facts.purpose ??= { value: paragraph, from: `${readme.path} first paragraph` };
  }
  if (facts.repository !== undefined) facts.name ??= { value: facts.repository, from: 'repository name' };

  for (const block of blocks) {
    if (isEntryPointPath(block.path)) facts.entryPoints.push({ target: block.path, via: 'named like an entry point' });
  }
  const languages = counted(blocks.map((block) => languageOf(block.path)).filter((l) => l !== undefined));
  facts.languages = byCountThenName(languages).map(([language, files]) => ({ language, files }));
  const directories = counted(
    blocks.map((block) => segmentsOf(block.path)).flatMap((s) => (s.length > 1 ? [s[0] ?? ''] : [])),
  );
  facts.directories = [...directories]
    .sort((a, b) => compareText(a[0], b[0]))
    .map(([name, files]) => ({ name, files }));
  facts.rootFiles = blocks.filter((block) => segmentsOf(block.path).length === 1).map((block) => block.path);
  facts.rootFiles.sort(compareText);
  return facts;
}
