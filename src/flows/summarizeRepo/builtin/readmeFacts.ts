/**
 * What the built-in model reads from a README: its title — the first `# heading` (or setext `===` title), else an
 * HTML `<h1>`, else the alt text of a leading logo — and its first real sentence: prose outside headings, code,
 * HTML blocks, lists, tables and link-only lines (badges, language menus), skipping notes, and calls to sponsor,
 * follow or buy merchandise. Inline Markdown and HTML are reduced to plain text.
 */

export interface ReadmeFacts {
  /** The first title as written. */
  heading?: string;
  /** Every title found, in order of preference: `#` titles (at most three), the HTML `<h1>`, the logo's alt text. */
  titles: string[];
  /** The first paragraph that reads as a statement of purpose, plain text. */
  paragraph?: string;
  /** Its first sentence (or two, when the first is very short). */
  sentence?: string;
}

const FENCE = /^\s*(```|~~~)/;
const LIST_OR_TABLE = /^\s*([-*+]\s|\d+[.)]\s|\|)/;
const RULE = /^\s*([-*_=]\s*){3,}$/;
/** `[label]: https://…` — a link reference definition. */
const LINK_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*\S+/;
const HTML_START = /^\s*<(?!https?:)[a-zA-Z!/]/;
const PROMOTION =
  /\b(sponsors?|sponsored|sponsorship|donat(e|ion|ions)|patreon|open ?collective|buy me a|merch|t-?shirts?|mugs|stickers|follow (me|us)|check out (my|our)|supported by|backers?|we('| a)re hiring|star (this|us|the repo))\b/i;
const NOTE =
  /^\s*(note|notes|warning|important|tip|caution|update|news|announcement|disclaimer|heads up|psa|deprecated|⚠️?)\b\s*[:!-]?|\b(excited to announce|we('| a)re announcing|now available|has been released|release of \S+ \d)/i;
const ALERT = /^\s*\[!(note|tip|important|warning|caution)\]/i;
const BADGE_ALT =
  /\b(badge|build|status|ci|coverage|license|version|downloads?|npm|pypi|crates|chat|discord|gitter|twitter|sponsors?|stars?|contributors)\b/i;

/** Plain text from inline Markdown and HTML: images dropped, links to their text, emphasis and code marks removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '')
    .replace(/\[!\[[^\]]*\]\[[^\]]*\]\]\[[^\]]*\]/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Only links, images and separators: a badge row or a menu of translations. */
function linksOnly(line: string): boolean {
  const rest = line
    .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '')
    .replace(/!?\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/<[^>]+>/g, '');
  return !/\p{L}{2,}/u.test(rest.replace(/[*_]/g, ''));
}

/** The first sentence of a paragraph, or the first two when the first is very short. */
export function firstSentence(text: string): string {
  const sentences = text.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)(?:\s+|$)|[^\s]+\s*/g) ?? [text];
  let sentence = '';
  for (const part of sentences) {
    sentence += part;
    // "e.g." and "i.e." do not end a sentence.
    if (/\b(e\.g|i\.e|etc|vs|approx|incl)\.\s*$/i.test(sentence)) continue;
    if (/[.!?]\s*$/.test(sentence) && sentence.trim().length >= 40) break;
  }
  return sentence.trim();
}

function isStatement(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  return words.length >= 4 && !PROMOTION.test(text) && !NOTE.test(text);
}

/** A logo's alt text (`vite logo` -> `vite`); badges do not count. */
function altText(html: string): string | undefined {
  const alt = /<img\b[^>]*\balt\s*=\s*"([^"]*)"/i.exec(html)?.[1] ?? /!\[([^\]]+)\]\(/.exec(html)?.[1];
  const text = alt?.trim().replace(/[\s-]+(logo|banner|icon)$/i, '');
  return text !== undefined && text !== '' && !BADGE_ALT.test(text) ? text : undefined;
}

export function readmeFacts(content: string): ReadmeFacts {
  const facts: ReadmeFacts = { titles: [] };
  const headings: string[] = [];
  let inAlert = false;
  const lines = content.split(/\r?\n/);
  let inFence = false;
  let inHtml = false;
  let htmlTitle: string | undefined;
  let logo: string | undefined;
  let seenProse = false;
  let paragraph: string[] = [];

  const endParagraph = (): void => {
    if (paragraph.length > 0 && facts.paragraph === undefined) {
      const text = plainText(paragraph.join(' '));
      if (isStatement(text)) {
        facts.paragraph = text;
        facts.sentence = firstSentence(text);
      }
      seenProse = true;
    }
    paragraph = [];
  };

  for (const [index, line] of lines.entries()) {
    if (FENCE.test(line)) {
      endParagraph();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (inHtml) {
      htmlTitle ??= /<h1\b[^>]*>(.*?)<\/h1>/i.exec(line)?.[1];
      if (!seenProse && headings.length === 0) logo ??= altText(line);
      if (line.trim() === '') inHtml = false;
      continue;
    }
    const next = lines[index + 1] ?? '';
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const setext = line.trim() !== '' && !HTML_START.test(line) && /^\s*=+\s*$/.test(next);
    if (atx?.[1] !== undefined || setext) {
      endParagraph();
      const title = plainText(atx?.[2] ?? line);
      if ((atx?.[1] === '#' || setext) && title !== '') headings.push(title);
      if (atx?.[1] === '#' && title === '' && !seenProse) logo ??= altText(atx?.[2] ?? '');
      continue;
    }
    if (HTML_START.test(line)) {
      endParagraph();
      htmlTitle ??= /<h1\b[^>]*>(.*?)<\/h1>/i.exec(line)?.[1];
      if (!seenProse && headings.length === 0) logo ??= altText(line);
      inHtml = !/^\s*<[^>]*>\s*$/.test(line) || !/^\s*<\/?(br|hr|img)\b/i.test(line);
      if (line.trim().endsWith('>') && /^\s*<(img|br|hr)\b/i.test(line)) inHtml = false;
      continue;
    }
    const trimmed = line.trim();
    // A GitHub alert (`> [!WARNING]`) and the quote lines under it are notes, not a statement of purpose.
    if (ALERT.test(trimmed.replace(/^>\s*/, ''))) inAlert = true;
    if (inAlert) {
      if (trimmed === '' || !trimmed.startsWith('>')) inAlert = false;
      else {
        endParagraph();
        continue;
      }
    }
    if (
      trimmed === '' ||
      LINK_DEFINITION.test(line) ||
      LIST_OR_TABLE.test(line) ||
      RULE.test(line) ||
      /^\s*-+\s*$/.test(next) ||
      ALERT.test(trimmed)
    ) {
      endParagraph();
      continue;
    }
    if (linksOnly(trimmed)) {
      if (!seenProse && headings.length === 0) logo ??= altText(trimmed);
      endParagraph();
      continue;
    }
    paragraph.push(trimmed.replace(/^>\s?/, ''));
  }
  endParagraph();
  facts.titles = [
    ...headings.slice(0, 3),
    ...(htmlTitle !== undefined ? [plainText(htmlTitle)] : []),
    ...(logo !== undefined ? [logo] : []),
  ].filter((title) => title !== '');
  if (facts.titles[0] !== undefined) facts.heading = facts.titles[0];
  return facts;
}
