import { nameKey, shortProjectName } from '../../../repo/facts/names.js';
import { isEntryPointPath, isReadmePath, languageOf } from '../../../repo/rank.js';
import { parseFacts } from '../factsText.js';
import type { ParsedFacts } from '../factsText.js';
import { readHeader } from './prompt.js';
import { MANIFEST_PRIORITY, manifestFacts } from './manifestFacts.js';
import type { EntryPoint, ManifestFacts } from './manifestFacts.js';
import { describingSentence, firstSentence, readmeFacts } from './readmeFacts.js';
import type { ReadmeFacts } from './readmeFacts.js';

/**
 * Parsing half of the built-in summary: the summary prompt's repository facts (computed from the whole
 * listing), its `<<<FILE path="…" bytes=… truncated=…>>>` blocks, and what the summary takes from them.
 * Name: the primary manifest's (shortened: `github.com/x/fzf` -> `fzf`), else a README title that looks like a
 * name, else the repository's. Purpose: the manifest description, else the README's first real sentence.
 * Languages, layout and entry points: the repository facts; without them, only what the files read show.
 * Deterministic: facts follow the file order.
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
  mainLanguage?: { language: string; detail: string };
  /** Language items (`Go 69% (87 files)`), and how they were counted. */
  languages: { items: string[]; note: string };
  apart?: string;
  layout: string[];
  entryPoints: EntryPoint[];
  commands: string[];
  files: FileBlock[];
  /** Whether the prompt carried the whole-repository facts. */
  wholeRepository: boolean;
}

const OPEN = /^<<<FILE\b(.*)>>>\s*$/;
const END = /^<<<END FILE>>>\s*$/;
/** What the repository reader appends to a file it cut (repo/reader.ts `formatTruncationMarker`). */
const TRUNCATION_MARKER = /^\[… truncated: showing \d+ of \d+ bytes\]$/;
/** Documentation read beside the README that may state the purpose: an overview, or a page named after the project. */
const OVERVIEW = /^(about|overview|introduction|intro|what-?is)$/i;
/** Headings that name a section, not a project. */
const SECTION_TITLE =
  /^(overview|introduction|intro|about|contents|table of contents|toc|features|installation|install|installing|usage|getting started|quick ?start|documentation|docs|examples?|license|licence|contributing|design goals|version support|requirements|prerequisites|motivation|concepts|benchmarks?|status|news|changelog|faq|support|sponsors?|backers|credits|acknowledg(e)?ments|warning|note|description|summary|synopsis|background|setup|set ?up|building|build|configuration|development|roadmap|demo|screenshots?|highlights|what(?:'|’)?s new|using .+|how to .+|what is .+)$/i;
const NOT_CODE = ['Markdown', 'JSON', 'YAML', 'TOML', 'Text'];

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
      // The server's own marker at the end of a cut file is not the file's text.
      const last = current.lines.length - 1;
      if (last >= 0 && TRUNCATION_MARKER.test(current.lines[last] ?? '')) current.lines.splice(last, 1);
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

/** Code-unit order: locale independent, so output is the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Shallowest first, then by manifest priority, then by path. */
function shallowFirst(a: FileBlock, b: FileBlock): number {
  const depth = segmentsOf(a.path).length - segmentsOf(b.path).length;
  const priority = MANIFEST_PRIORITY.indexOf(baseName(a.path)) - MANIFEST_PRIORITY.indexOf(baseName(b.path));
  return depth || priority || compareText(a.path, b.path);
}

/** `fzf - a command-line fuzzy finder` -> `fzf`; `jsoup: Java HTML Parser` -> `jsoup`. */
function titleName(title: string): string {
  return (
    title
      .split(/\s+[-–—|]\s+|:\s+|,\s+/)[0]
      ?.replace(/\s*[⚡🔥✨🚀]+\s*$/u, '')
      .trim() ?? title
  );
}

/** A README title names the project when it is short and not a section heading or a call to sponsor. */
export function looksLikeName(title: string): boolean {
  const name = titleName(title);
  const words = name.split(/\s+/).filter((word) => word !== '');
  return (
    name !== '' &&
    name.length <= 40 &&
    words.length <= 5 &&
    !SECTION_TITLE.test(name) &&
    !/\b(sponsor|sponsorship|sponsored|announcement|release)\b/i.test(name) &&
    !/[.?!]$/.test(name)
  );
}

function chooseName(
  parsed: ParsedFacts | undefined,
  readme: { path: string; facts: ReadmeFacts } | undefined,
  manifests: [FileBlock, ManifestFacts][],
  repository: string | undefined,
): { value: string; from: string } | undefined {
  const titles = readme?.facts.titles.filter(looksLikeName).map(titleName) ?? [];
  const declared =
    parsed?.name ??
    manifests
      .map(([block, facts]) =>
        facts.name?.trim() ? { value: facts.name.trim(), from: `${block.path} name` } : undefined,
      )
      .find((name) => name !== undefined);
  if (declared !== undefined) {
    const short = shortProjectName(declared.value);
    // The README's spelling when it names the same project (`cJSON`, `Flask`).
    const spelled = titles.find((title) => title.replace(/[{}]/g, '').toLowerCase() === short.toLowerCase());
    if (spelled !== undefined) return { value: spelled, from: declared.from };
    // A package id (`laravel/framework`, `@scope/name`) is whole, unless the README's title names the same thing.
    if (isPackageId(declared.value)) {
      const words = new Set(
        declared.value
          .toLowerCase()
          .split(/[@/_.-]+/)
          .filter((word) => word.length > 1),
      );
      const title = titles.find((candidate) =>
        candidate
          .toLowerCase()
          .split(/[\s/_.-]+/)
          .some((word) => words.has(word.replace(/[^\p{L}\p{N}]/gu, ''))),
      );
      return { value: title ?? declared.value, from: title === undefined ? declared.from : `${readme?.path} title` };
    }
    return { value: short, from: declared.from };
  }
  if (readme !== undefined && titles[0] !== undefined) return { value: titles[0], from: `${readme.path} title` };
  return repository === undefined ? undefined : { value: repository, from: 'repository name' };
}

/** `vendor/name` or `@scope/name`, not a Go module path (`github.com/x/y`) nor a workspace root (`@x/monorepo`). */
function isPackageId(name: string): boolean {
  const match = /^@?([\w-]+)\/([\w.-]+)$/.exec(name.trim());
  return match !== null && shortProjectName(name).toLowerCase() === (match[2] ?? '').toLowerCase();
}

/** The README title adds to the sentence when some of its words are not in it (`JSON for Modern C++`). */
function withTagline(sentence: string, title: string | undefined, name: string | undefined): string {
  if (title === undefined || nameKey(title) === nameKey(name ?? '') || SECTION_TITLE.test(title)) return sentence;
  const words = title
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 2);
  const lower = sentence.toLowerCase();
  if (words.length < 3 || words.every((word) => lower.includes(word))) return sentence;
  return `${title} — ${sentence}`;
}

function choosePurpose(
  parsed: ParsedFacts | undefined,
  readme: { path: string; facts: ReadmeFacts } | undefined,
  manifests: [FileBlock, ManifestFacts][],
  blocks: FileBlock[],
  name: string | undefined,
): { value: string; from: string } | undefined {
  if (parsed?.description !== undefined && parsed.description.value.split(/\s+/).length >= 2) {
    return { value: parsed.description.value, from: parsed.description.from };
  }
  for (const [block, facts] of manifests) {
    const description = facts.description?.trim();
    if (description) return { value: description, from: `${block.path} description` };
  }
  const names = [name, ...(readme?.facts.titles.map(titleName) ?? [])].filter(
    (value): value is string => value !== undefined,
  );
  const described = readme === undefined ? undefined : describingSentence(readme.facts, names);
  if (readme !== undefined && described !== undefined) {
    return {
      value: withTagline(described, readme.facts.titles[0], name),
      from: `${readme.path} ${described === readme.facts.sentence ? 'first sentence' : 'sentence about the project'}`,
    };
  }
  for (const block of blocks) {
    if (block.path === readme?.path || !/\.(md|markdown|rst|txt|adoc)$/i.test(block.path)) continue;
    const stem = baseName(block.path).replace(/\.[^.]+$/, '');
    if (!OVERVIEW.test(stem) && (name === undefined || nameKey(stem) !== nameKey(name))) continue;
    const sentence = readmeFacts(block.content).sentence;
    if (sentence !== undefined) return { value: firstSentence(sentence), from: `${block.path} first sentence` };
  }
  return undefined;
}

function counted(names: Iterable<string>): [string, number][] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
}

/** Languages and layout from the facts; without them, from the files read (and saying so). */
function shapeFromFacts(facts: SummaryFacts, parsed: ParsedFacts | undefined, blocks: FileBlock[]): void {
  const languagesValue = parsed?.values.get('Languages');
  if (parsed?.mainLanguage !== undefined) {
    const language = parsed.mainLanguage.language.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const share = new RegExp(`(?:^|, )${language} (\\d+%|<1%) \\(`).exec(languagesValue ?? '');
    facts.mainLanguage = {
      language: parsed.mainLanguage.language,
      detail: parsed.mainLanguage.documentationOnly
        ? 'documentation only, no code'
        : share !== null
          ? `${share[1]} of the code by bytes`
          : 'of the code',
    };
  }
  if (languagesValue !== undefined) {
    const [items = '', note = ''] = languagesValue.split(' — ');
    facts.languages = { items: items.split(', ').filter((item) => item !== ''), note: `${note}, whole repository` };
  }
  const apart = parsed?.values.get('Counted apart');
  if (apart !== undefined) facts.apart = apart;
  facts.layout = parsed?.values.get('Layout')?.split('; ') ?? [];
  facts.commands = parsed?.values.get('Commands')?.split('; ') ?? [];
  if (parsed !== undefined) return;
  const languages = counted(blocks.map((block) => languageOf(block.path)).filter((l) => l !== undefined));
  facts.languages = {
    items: languages.map(([language, files]) => `${language}: ${files} file${files === 1 ? '' : 's'}`),
    note: 'files read only',
  };
  const main = languages.find(([language]) => !NOT_CODE.includes(language));
  if (main !== undefined) facts.mainLanguage = { language: main[0], detail: 'among the files read only' };
  const dirs = counted(
    blocks.flatMap((block) => (segmentsOf(block.path).length > 1 ? [segmentsOf(block.path)[0] ?? ''] : [])),
  );
  facts.layout = dirs.map(([dir, files]) => `${dir}/ ${files} read`);
}

export function collectFacts(text: string): SummaryFacts {
  const { prompt, blocks } = parseFileBlocks(text);
  const parsed = parseFacts(prompt);
  const header = readHeader(prompt);
  const facts: SummaryFacts = {
    ...header,
    languages: { items: [], note: '' },
    layout: [],
    entryPoints: [],
    commands: [],
    files: blocks,
    wholeRepository: parsed !== undefined,
  };

  const manifests = blocks
    .filter((block) => MANIFEST_PRIORITY.includes(baseName(block.path)))
    .sort(shallowFirst)
    .map((block): [FileBlock, ManifestFacts] => [
      block,
      manifestFacts(block.path, block.content) ?? { entryPoints: [] },
    ]);
  const readmeBlock = blocks.filter((block) => isReadmePath(block.path)).sort(shallowFirst)[0];
  const readme =
    readmeBlock === undefined ? undefined : { path: readmeBlock.path, facts: readmeFacts(readmeBlock.content) };

  const name = chooseName(parsed, readme, parsed === undefined ? manifests : [], header.repository);
  if (name !== undefined) facts.name = name;
  const purpose = choosePurpose(parsed, readme, parsed === undefined ? manifests : [], blocks, name?.value);
  if (purpose !== undefined) facts.purpose = purpose;
  shapeFromFacts(facts, parsed, blocks);

  if (parsed !== undefined) {
    facts.entryPoints = parsed.entryPoints.map(({ path, via }) => ({ target: path, via }));
  } else {
    // Without the facts nothing is checked against the listing: files read come first, declarations say so.
    for (const block of blocks) {
      if (isEntryPointPath(block.path))
        facts.entryPoints.push({ target: block.path, via: 'named like an entry point' });
    }
    for (const [, manifest] of manifests) {
      for (const entry of manifest.entryPoints) {
        facts.entryPoints.push({
          target: entry.target,
          via: `${entry.via}, declared (not checked against the listing)`,
        });
      }
    }
  }
  return facts;
}
