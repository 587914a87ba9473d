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
  /** The first sentences of the first few statements (at most {@link MAX_STATEMENTS}), in order. */
  statements: string[];
}

const MAX_STATEMENTS = 6;

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
  /\b(badge|build|status|ci|coverage|license|version|releases?|downloads?|npm|pypi|crates|maven|nuget|packagist|homebrew|docker|chat|discord|gitter|twitter|sponsors?|stars?|contributors)\b/i;

const BADGE_SOURCE =
  /\b(img\.shields\.io|shields\.io|badgen\.net|badge\.fury\.io|jitpack\.io\/v\/|codecov\.io|travis-ci\.|circleci\.com)|\/badges?[/.]|badge\.svg|\/workflows\/[^)"]*\/badge/i;

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

/** A sentence that tells the reader where to go rather than what the project is (`See the website for …`). */
const DIRECTION =
  /^(please\s+)?(see|follow|read|visit|check|click|download|install|begin|start|learn|go to|refer to|head (over )?to|get started|find|join)\b(?!\s+(is|are|was|has|provides|helps|lets|allows|makes)\b)|^for (more|usage|details|documentation|installation|questions|help|support|the (full|complete|latest))\b|\bplease\b|^[\p{L}\d.-]+ (requires|needs)\b/iu;
/** Licence lines, copyright and disclaimers of affiliation: true of many projects, not a statement of purpose. */
const FINE_PRINT =
  /\b(licen[cs]ed? under|copyright|not affiliated|endorsed by)\b|©|^(MIT|Apache|BSD|GPL|ISC)\b|^(thank you|thanks)\b/i;

/** Mostly Latin script: a tagline in Chinese, Japanese, Russian… is not the English statement of purpose. */
function isLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((letter) => /\p{Script=Latin}/u.test(letter)).length;
  return letters.length > 0 && latin / letters.length >= 0.8;
}

function isStatement(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  return (
    words.length >= 4 &&
    !PROMOTION.test(text) &&
    !NOTE.test(text) &&
    isLatin(text) &&
    !DIRECTION.test(firstSentence(text)) &&
    !FINE_PRINT.test(firstSentence(text))
  );
}

/** `OkHttp is an HTTP client…`: a sentence whose subject is the project. */
function isAbout(sentence: string, names: readonly string[]): boolean {
  const lower = sentence.toLowerCase().replace(/^(the|a|an)\s+/, '');
  return names.some((name) => {
    const key = name.toLowerCase().trim();
    return (
      key !== '' &&
      lower.startsWith(key) &&
      /^\s*(\([^)]*\)\s*)?(is|are|was|provides|helps|lets|allows|makes|offers|gives|enables|—|–|-|:)\s/.test(
        lower.slice(key.length),
      )
    );
  });
}

/** The statement that describes the project: the first whose subject is one of `names`, else the first. */
export function describingSentence(facts: ReadmeFacts, names: readonly string[]): string | undefined {
  return facts.statements.find((sentence) => isAbout(sentence, names)) ?? facts.sentence;
}

/** A logo's alt text (`vite logo` -> `vite`); badges do not count. */
function altText(html: string): string | undefined {
  // A badge service's image is never the logo, whatever its alt text (`JitPack`, `Java 11+`).
  if (BADGE_SOURCE.test(html)) return undefined;
  const alt = /<img\b[^>]*\balt\s*=\s*"([^"]*)"/i.exec(html)?.[1] ?? /!\[([^\]]+)\]\(/.exec(html)?.[1];
  const text = alt?.trim().replace(/[\s-]+(logo|banner|icon)$/i, '');
  return text !== undefined && text !== '' && !BADGE_ALT.test(text) ? text : undefined;
}

export function readmeFacts(content: string): ReadmeFacts {
  const facts: ReadmeFacts = { titles: [], statements: [] };
  const headings: string[] = [];
  let inAlert = false;
  const lines = content.split(/\r?\n/);
  let inFence = false;
  let inList = false;
  let inHtml = false;
  let htmlTitle: string | undefined;
  let logo: string | undefined;
  let seenProse = false;
  let paragraph: string[] = [];

  let htmlText: string[] = [];
  // Prose inside HTML blocks counts only when the Markdown has no statement (sponsor blocks are HTML too).
  const fromHtml: string[] = [];
  const statement = (text: string, html = false): void => {
    if (!isStatement(text)) return;
    if (html) fromHtml.push(text);
    else if (facts.statements.length < MAX_STATEMENTS) {
      facts.statements.push(firstSentence(text));
      facts.paragraph ??= text;
    }
  };
  const endParagraph = (): void => {
    if (paragraph.length > 0) {
      statement(plainText(paragraph.join(' ')));
      seenProse = true;
    }
    paragraph = [];
  };
  // Text outside links, across the lines of an HTML block: a sponsor's logo and slogan are one link.
  let anchorDepth = 0;
  let htmlOutside: string[] = [];
  const addHtml = (line: string): void => {
    htmlText.push(line);
    for (const part of line.split(/(<a\b[^>]*>|<\/a>)/i)) {
      if (/^<a\b/i.test(part)) anchorDepth++;
      else if (/^<\/a>$/i.test(part)) anchorDepth = Math.max(0, anchorDepth - 1);
      else if (anchorDepth === 0) htmlOutside.push(part);
    }
  };
  // `<p align="center">A linter for …</p>`: prose of its own, not a heading, small print or a link's slogan.
  const endHtml = (): void => {
    const html = htmlText.join(' ');
    const own = plainText(htmlOutside.join(' '))
      .split(/\s+/)
      .filter((word) => /\p{L}{2,}/u.test(word));
    if (own.length >= 3 && !/<(h[1-6]|sub|sup)\b/i.test(html)) statement(plainText(html), true);
    htmlText = [];
    htmlOutside = [];
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
      addHtml(line);
      if (line.trim() === '') {
        inHtml = false;
        endHtml();
      } else if (/<\/(p|div)>\s*$/i.test(line)) endHtml();
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
      htmlText = [];
      htmlOutside = [];
      anchorDepth = 0;
      addHtml(line);
      if (!inHtml || /<\/(p|div)>\s*$/i.test(line)) endHtml();
      continue;
    }
    const trimmed = line.trim();
    // Indented lines under a list item belong to it (`* Step 2: …` and its explanation).
    if (LIST_OR_TABLE.test(line)) inList = true;
    else if (trimmed !== '' && !/^\s{2,}/.test(line)) inList = false;
    if (inList && !LIST_OR_TABLE.test(line) && trimmed !== '') {
      endParagraph();
      continue;
    }
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
  endHtml();
  if (facts.paragraph === undefined && fromHtml[0] !== undefined) facts.paragraph = fromHtml[0];
  facts.statements.push(...fromHtml.slice(0, MAX_STATEMENTS - facts.statements.length).map(firstSentence));
  if (facts.paragraph !== undefined) facts.sentence = firstSentence(facts.paragraph);
  facts.titles = [
    ...headings.slice(0, 3),
    ...(htmlTitle !== undefined ? [plainText(htmlTitle)] : []),
    ...(logo !== undefined ? [logo] : []),
  ].filter((title) => title !== '');
  if (facts.titles[0] !== undefined) facts.heading = facts.titles[0];
  return facts;
}
