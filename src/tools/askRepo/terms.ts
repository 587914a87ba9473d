/**
 * ask_repo's deterministic retrieval: the question's terms, a file's score for them (path and content), and the
 * passages of a shown file most likely to answer. Pure functions, no model: what the built-in model answers with.
 */

/** Words that say nothing about where an answer lives. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in is it its of on or the this to what when where which ' +
    'who why with file files code repo repository project handled handle used use work works done there'
  ).split(' '),
);

/** The question's search terms: lower-cased words and identifiers of 3+ characters, without stop words. */
export function questionTerms(question: string): string[] {
  const terms = new Set<string>();
  for (const word of question.toLowerCase().match(/[a-z0-9_$.-]{2,}/g) ?? []) {
    const trimmed = word.replace(/^[.-]+|[.-]+$/g, '');
    if (trimmed.length < 3 || STOP_WORDS.has(trimmed)) continue;
    terms.add(trimmed);
    // camelCase and snake_case parts count too: `secretScanner` also looks for `secret` and `scanner`.
    for (const part of trimmed.split(/[_.-]/)) if (part.length >= 3 && !STOP_WORDS.has(part)) terms.add(part);
  }
  return [...terms].slice(0, 24);
}

function occurrences(text: string, term: string): number {
  let count = 0;
  for (let at = text.indexOf(term); at !== -1 && count < 1000; at = text.indexOf(term, at + term.length)) count++;
  return count;
}

/** A file's score: a term in its path weighs much more than one in its content (capped per term). */
export function scoreFile(path: string, content: string, terms: readonly string[]): number {
  const lowerPath = path.toLowerCase();
  const lowerContent = content.toLowerCase();
  let score = 0;
  for (const term of terms) {
    if (lowerPath.includes(term)) score += 10;
    score += Math.min(occurrences(lowerContent, term), 20);
  }
  return score;
}

/** A cited range of a file's lines (1-based, inclusive). */
export interface LineRange {
  start: number;
  end: number;
}

export interface Passage extends LineRange {
  path: string;
  score: number;
  text: string;
}

/** Lines of context around a line that matches. */
const PASSAGE_CONTEXT = 3;

/**
 * The best passages of one file's shown lines: windows around the lines that hold the most terms, merged where
 * they overlap, best first.
 */
export function filePassages(path: string, lines: readonly string[], terms: readonly string[], max = 2): Passage[] {
  const hits = lines.map((line) => {
    const lower = line.toLowerCase();
    return terms.reduce((sum, term) => sum + (lower.includes(term) ? 1 : 0), 0);
  });
  const windows: Passage[] = [];
  const order = hits
    .map((hit, index) => ({ hit, index }))
    .filter(({ hit }) => hit > 0)
    .sort((a, b) => b.hit - a.hit || a.index - b.index);
  for (const { index } of order) {
    if (windows.length >= max) break;
    const start = Math.max(1, index + 1 - PASSAGE_CONTEXT);
    const end = Math.min(lines.length, index + 1 + PASSAGE_CONTEXT);
    if (windows.some((w) => start <= w.end && end >= w.start)) continue;
    const score = hits.slice(start - 1, end).reduce((a, b) => a + b, 0);
    windows.push({ path, start, end, score, text: lines.slice(start - 1, end).join('\n') });
  }
  return windows;
}
