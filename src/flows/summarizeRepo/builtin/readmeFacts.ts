/**
 * What the built-in model reads from a README: its title (the first `# heading`, or a setext `===`
 * title) and its first prose paragraph (skipping headings, badges, HTML, lists, quotes, tables and
 * code), with inline Markdown reduced to plain text.
 */

export interface ReadmeFacts {
  heading?: string;
  paragraph?: string;
}

const FENCE = /^\s*(```|~~~)/;
const NOT_PROSE = /^\s*(#|!\[|\[!\[|<|>|\||[-*+]\s|\d+[.)]\s|=+\s*$|-{3,}\s*$|\.\.\s)/;

/** Plain text from inline Markdown: images dropped, links to their text, emphasis and code marks removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

export function readmeFacts(content: string): ReadmeFacts {
  const facts: ReadmeFacts = {};
  const lines = content.split(/\r?\n/);
  let inFence = false;
  let anyHeading: string | undefined;
  let paragraph: string[] = [];

  const endParagraph = (): void => {
    if (facts.paragraph === undefined && paragraph.length > 0) {
      const text = plainText(paragraph.join(' '));
      if (/\p{L}/u.test(text)) facts.paragraph = text;
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
    const next = lines[index + 1] ?? '';
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const setext = line.trim() !== '' && !NOT_PROSE.test(line) && /^\s*=+\s*$/.test(next);
    if (atx?.[1] !== undefined || setext) {
      endParagraph();
      const title = plainText(atx?.[2] ?? line);
      if ((atx?.[1] === '#' || setext) && title !== '') facts.heading ??= title;
      if (title !== '') anyHeading ??= title;
      continue;
    }
    if (line.trim() === '' || NOT_PROSE.test(line) || /^\s*-+\s*$/.test(next)) {
      endParagraph();
      continue;
    }
    paragraph.push(line.trim());
  }
  endParagraph();
  if (facts.heading === undefined && anyHeading !== undefined) facts.heading = anyHeading;
  return facts;
}
