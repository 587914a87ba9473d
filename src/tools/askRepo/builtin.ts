/**
 * ask_repo's built-in model: deterministic retrieval, no language model. It reads the prompt it is given — the
 * question, the ranked candidates, the numbered lines shown — and answers with the best candidates (pick) or the
 * passages most likely to answer, each cited (answer), plainly labelled, never invented prose.
 */
import type { BuiltinAnswer, BuiltinModel } from '../../entries/tool.js';
import { parseShown } from './shown.js';
import { filePassages, questionTerms, type Passage } from './terms.js';

export const BUILTIN_LABEL = 'No language model: the passages most likely to answer.';
export const BUILTIN_NOTHING = 'No language model: no passage of the files read matches the question’s terms.';

/** Passages shown in the built-in answer. */
const MAX_PASSAGES = 5;

const json = (value: unknown): BuiltinAnswer => ({
  content: { type: 'text', text: JSON.stringify(value) },
  model: 'builtin-retrieval',
});

function question(prompt: string): string {
  return /^QUESTION: (.*)$/m.exec(prompt)?.[1] ?? '';
}

function candidates(prompt: string): string[] {
  const at = prompt.search(/^CANDIDATES[^\n]*:$/m);
  if (at === -1) return [];
  const paths: string[] = [];
  for (const line of prompt.slice(at).split('\n').slice(1)) {
    const [path, size] = line.split('\t');
    if (path === undefined || size === undefined || !size.endsWith(' bytes')) break;
    paths.push(path);
  }
  return paths;
}

function atMost(prompt: string): number {
  return Number(/at most (\d+) files/.exec(prompt)?.[1] ?? 4);
}

/** The best passages of the files shown, as an answer with its citations. */
export function retrievalAnswer(prompt: string): { answer: string; citations: Array<{ path: string; lines: string }> } {
  const terms = questionTerms(question(prompt));
  const passages: Passage[] = parseShown(prompt).flatMap((file) => filePassages(file.path, file.lines, terms));
  const best = passages.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, MAX_PASSAGES);
  if (best.length === 0) return { answer: BUILTIN_NOTHING, citations: [] };
  const cite = (p: Passage) => `${p.path}:${p.start}-${p.end}`;
  const answer = [BUILTIN_LABEL, ...best.map((p) => `${cite(p)}\n\`\`\`\n${p.text}\n\`\`\``)].join('\n\n');
  return { answer, citations: best.map((p) => ({ path: p.path, lines: `${p.start}-${p.end}` })) };
}

const pick: BuiltinModel = (_request, { prompt }) => json({ paths: candidates(prompt).slice(0, atMost(prompt)) });

const answer: BuiltinModel = (_request, { prompt }) => json(retrievalAnswer(prompt));

/** Explore, deterministically: read the best candidates first, then answer with their passages. */
const explore: BuiltinModel = (_request, { prompt }) => {
  if (parseShown(prompt).length === 0) {
    const paths = candidates(prompt).slice(0, atMost(prompt));
    if (paths.length > 0) return json({ action: 'read', paths });
  }
  return json({ action: 'answer', ...retrievalAnswer(prompt) });
};

export const ASK_REPO_BUILTIN = { pick, answer, explore };
