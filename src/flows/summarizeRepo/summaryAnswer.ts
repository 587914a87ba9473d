/**
 * Whether a `summary` answer can be used, and the summary in it. Any non-empty prose is a summary; an empty or
 * blank reply, a short reply that is a refusal ("I'm sorry, but I can't…", "As an AI…"), or a reply that repeats
 * the prompt (its instruction, or a file excerpt's header) is not. The wrapping models put around a summary is
 * taken off with care (`unwrapSummary`): one preface line that announces the summary, and one fence around the
 * whole of it; anything else is kept. Pure: the caller decides what an unusable answer means.
 */
import { FILE_BLOCK_OPENING, SUMMARY_INSTRUCTION } from './prompts.js';

/** A refusal is short: a long answer that happens to contain such a phrase is a summary. */
const MAX_REFUSAL_CHARS = 400;

const REFUSAL =
  /^(?:(?:i(?:'|’)?m sorry|i am sorry|sorry|i apologi[sz]e|unfortunately|apologies)\b[\s,.!:;-]*(?:but\s+)?)?(?:i|we)(?:(?:'|’)?m| am| are)?\s+(?:can(?:not|(?:'|’)t)|could ?n(?:o|(?:'|’))t|won(?:'|’)t|will not|unable to|not able to|must decline|(?:have to|need to) decline|do(?:n(?:'|’)t| not) feel comfortable)\b/i;
const AS_AN_AI = /^as an ai\b/i;

/** A preface is one short line. */
const MAX_PREFACE_CHARS = 160;
/**
 * "Here is the summary:", "Sure! Here's a concise summary of the repository for a developer:", "Summary:" — a line
 * that announces the summary and says nothing of the repository itself (no colon but the last). Headings
 * (`## Summary`) are content.
 */
const PREFACE =
  /^(?:(?:sure|certainly|of course|okay|ok|absolutely|great)\b[!,.]?\s*)?(?:here(?:'|’)?s|here is|below is|this is)\b[^\n:]*\bsummary\b[^\n:]*[:.]$|^(?:\*\*)?summary:?(?:\*\*)?:?$/i;
/** A fence line: its character run and the info string after it. */
const FENCE = /^(`{3,}|~{3,})[ \t]*([^`\n]*?)[ \t]*$/;
/** Info strings of a fence that wraps prose: none, or a Markdown or plain-text language. */
const PROSE_LANGUAGES = new Set(['', 'md', 'markdown', 'text', 'txt', 'plaintext']);

export type SummaryCheck = { kind: 'summary'; text: string } | { kind: 'unusable'; reason: string };

/** Removes the first line when it only announces the summary and something follows it. */
function withoutPreface(text: string): string {
  const newline = text.indexOf('\n');
  if (newline < 0) return text;
  const first = text.slice(0, newline).trim();
  const rest = text.slice(newline + 1).trim();
  if (first.length > MAX_PREFACE_CHARS || rest === '' || !PREFACE.test(first)) return text;
  return rest;
}

/**
 * The inside of one fence that encloses the whole text (opened on the first line with no language or a prose one,
 * closed by a bare fence of the same character, at least as long, on the last line), when the fences inside it
 * pair up — each opened with a language or a longer run and closed in turn. Otherwise the text as it is: two
 * separate blocks, or a code block that merely comes first, are content.
 */
function withoutEnclosingFence(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 3) return text;
  const open = FENCE.exec(lines[0] as string);
  const close = FENCE.exec((lines.at(-1) as string).trimEnd());
  if (open === null || close === null || close[2] !== '') return text;
  const [, run = '', language = ''] = open;
  const closing = close[1] as string;
  if (!PROSE_LANGUAGES.has(language.toLowerCase())) return text;
  if (closing[0] !== run[0] || closing.length < run.length) return text;
  const inner = lines.slice(1, -1);
  let nested: string | undefined;
  for (const line of inner) {
    const fence = FENCE.exec(line.trim());
    if (fence === null) continue;
    const [, marks = '', info = ''] = fence;
    if (nested === undefined) {
      // A bare fence at the outer level would close the enclosing one: the text is not one block.
      if (info === '' && marks[0] === run[0] && marks.length >= run.length) return text;
      nested = marks;
    } else if (info === '' && marks[0] === nested[0] && marks.length >= nested.length) {
      nested = undefined;
    }
  }
  if (nested !== undefined) return text;
  return inner.join('\n').trim();
}

/** The summary without its wrapping: a preface line, then one enclosing fence (a preface inside it too). */
export function unwrapSummary(answer: string): string {
  const text = answer.trim().replace(/\r\n/g, '\n');
  const unfenced = withoutEnclosingFence(withoutPreface(text));
  const result = unfenced === text ? text : withoutPreface(unfenced);
  return result;
}

/** Whether the answer repeats the summary prompt instead of summarizing: its instruction, or an excerpt's header. */
function repeatsPrompt(text: string): boolean {
  return text.includes(SUMMARY_INSTRUCTION) || text.split('\n').some((line) => line.startsWith(FILE_BLOCK_OPENING));
}

export function checkSummaryText(answer: string): SummaryCheck {
  const text = unwrapSummary(answer);
  if (text === '') return { kind: 'unusable', reason: 'the summary is empty' };
  if (text.length <= MAX_REFUSAL_CHARS && (REFUSAL.test(text) || AS_AN_AI.test(text))) {
    return { kind: 'unusable', reason: 'the answer is a refusal, not a summary' };
  }
  if (repeatsPrompt(text)) {
    return {
      kind: 'unusable',
      reason: 'the answer repeats the prompt (its instructions or file excerpts), not a summary',
    };
  }
  return { kind: 'summary', text };
}
