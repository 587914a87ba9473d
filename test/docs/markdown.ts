/**
 * What the docs tests read from the Markdown: the files (README.md and docs/*.md), their fenced code blocks, their
 * headings as GitHub anchors, and their relative links. A small reader of the CommonMark forms these docs use, not a
 * full Markdown parser.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** README.md and every docs/*.md, as paths from the repository root. */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

export interface FencedBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (`ts`, `sh`, `json`, …), '' when there is none. */
  lang: string;
  code: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;

/** Every fenced code block of a Markdown text, in order. */
export function fencedBlocks(file: string, text: string): FencedBlock[] {
  const lines = text.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (open === null) continue;
    const [, indent, fence] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close !== null && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({ file, line: i + 1, lang: open[3]!, code: body.length === 0 ? '' : `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}

/** The text with fenced blocks blanked (lines kept, so line numbers hold) and inline code spans removed. */
export function proseOnly(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      if (fence !== undefined) {
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
        if (close !== null && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
        return '';
      }
      const open = FENCE.exec(line);
      if (open !== null) {
        fence = open[2]!;
        return '';
      }
      return line.replace(/(`+)[\s\S]*?\1/g, '');
    })
    .join('\n');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/[`*~]/g, ''); // code and emphasis marks (GitHub keeps `_`)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text defines: its headings (GitHub's numbering of repeats) and `<a id|name="…">`. */
export function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const counts = new Map<string, number>();
  const withCodeSpans = text.split('\n');
  const prose = proseOnly(text).split('\n');
  prose.forEach((line, index) => {
    if (!/^#{1,6}\s/.test(line)) return;
    // The heading with its code spans (proseOnly removed them; their text is part of the anchor).
    const heading = withCodeSpans[index]!.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, '');
    const slug = githubSlug(heading);
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    found.add(seen === 0 ? slug : `${slug}-${seen}`);
  });
  for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(match[1]!);
  return found;
}

/** The first level-one heading outside code blocks, or undefined. */
export function h1(text: string): string | undefined {
  const line = proseOnly(text)
    .split('\n')
    .find((candidate) => /^#\s/.test(candidate));
  return line?.replace(/^#\s+/, '').trim();
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** Inline links and reference definitions outside code; images included, autolinks and bare URLs not. */
export function links(file: string, text: string): Link[] {
  const found: Link[] = [];
  proseOnly(text)
    .split('\n')
    .forEach((line, index) => {
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        found.push({ file, line: index + 1, target: match[1]! });
      }
      const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
      if (definition !== null) found.push({ file, line: index + 1, target: definition[1]! });
    });
  return found;
}

/** Whether a link leaves the repository (a URL with a scheme, or mail). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}
