/**
 * Finds the file list in a pick answer written the way models write: a bare JSON array, a fenced
 * one, or one array of strings inside prose. Pure and linear in the text; it decides only what the
 * answer names — the caller still validates every entry against the listing.
 *
 * Rules, in order:
 * 0. An answer nesting arrays or objects more than {@link MAX_ANSWER_DEPTH} deep is refused unparsed.
 * 1. The answer (or the body of a single fence that is the whole answer) is valid JSON: an array is
 *    the list (entries that are not strings stay in it, to be reported as dropped); any other JSON
 *    value (`{"files": [...]}`, a string, a number) is a wrong answer, not prose: refused.
 * 2. Otherwise the prose is searched for JSON arrays whose entries are all strings (at least one;
 *    a lone backslash that is not a JSON escape is read as a path separator). Exactly one distinct
 *    such array is the list (the same array repeated counts once); none, or several different ones,
 *    is refused.
 * 3. Each string entry is normalised: surrounding whitespace, quotes and backticks go, backslashes
 *    become `/`, leading `./` go.
 */

import { MAX_ANSWER_DEPTH, textNestsDeeperThan } from '../../protocol/json.js';

export type PickEntry = string | { notAPath: string };

export type PickListResult = { kind: 'list'; entries: PickEntry[] } | { kind: 'unusable'; reason: string };

const WHOLE_FENCE = /^```[\w-]*[ \t]*\n([\s\S]*?)\n?```$/;
const QUOTES = /^(["'`])(.*)\1$/s;

/** One path as a model may have written it, in the form the listing uses. */
export function normalisePickPath(entry: string): string {
  let path = entry.trim();
  for (let quoted = QUOTES.exec(path); quoted !== null; quoted = QUOTES.exec(path)) path = (quoted[2] ?? '').trim();
  path = path.replace(/\\/g, '/');
  while (path.startsWith('./')) path = path.slice(2).replace(/^\/+/, '');
  return path;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function toEntries(values: readonly unknown[]): PickEntry[] {
  return values.map((entry) =>
    typeof entry === 'string' ? normalisePickPath(entry) : { notAPath: JSON.stringify(entry) ?? String(entry) },
  );
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * From the `[` at `start`: the end (exclusive) of a JSON array of one or more strings, or the
 * position where that reading failed, plus the first `[` met inside a string on the way (a string
 * may hold the start of the real array when the prose has an unbalanced quote).
 */
function scanStringArray(text: string, start: number): { end?: number; failedAt: number; nested?: number } {
  let i = start + 1;
  let nested: number | undefined;
  const skipSpace = (): void => {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  };
  for (;;) {
    skipSpace();
    if (text[i] !== '"') return { failedAt: i, ...(nested !== undefined && { nested }) };
    i++;
    for (; i < text.length && text[i] !== '"'; i++) {
      const char = text[i] as string;
      if (char === '\n' || char === '\r') return { failedAt: i, ...(nested !== undefined && { nested }) };
      if (char === '[' && nested === undefined) nested = i;
      if (char === '\\') i++;
    }
    if (i >= text.length) return { failedAt: i, ...(nested !== undefined && { nested }) };
    i++;
    skipSpace();
    if (text[i] === ']') return { end: i + 1, failedAt: i + 1 };
    if (text[i] !== ',') return { failedAt: i, ...(nested !== undefined && { nested }) };
    i++;
  }
}

/** Every distinct JSON array of strings in the prose, stopping at the second. */
function stringArraysIn(text: string): string[][] {
  const found = new Map<string, string[]>();
  let from = 0;
  while (found.size < 2) {
    const start = text.indexOf('[', from);
    if (start < 0) break;
    const scanned = scanStringArray(text, start);
    if (scanned.end !== undefined) {
      const span = text.slice(start, scanned.end);
      // Windows paths written with single backslashes (`"docs\guide.md"`) are not valid JSON escapes.
      let parsed = parseJson(span);
      if (!parsed.ok) parsed = parseJson(span.replace(/\\(?!["\\/bfnrtu])/g, '\\\\'));
      if (parsed.ok && Array.isArray(parsed.value)) {
        const entries = (parsed.value as string[]).map(normalisePickPath);
        found.set(JSON.stringify(entries), entries);
      }
      from = scanned.end;
    } else {
      from = scanned.nested ?? Math.max(scanned.failedAt, start + 1);
    }
  }
  return [...found.values()];
}

/** The file list an answer names; see the module comment for the rules. */
export function findPickList(answer: string): PickListResult {
  const trimmed = answer.trim();
  if (trimmed === '') return { kind: 'unusable', reason: 'the answer is empty (expected a JSON array of file paths)' };
  // Told before anything parses it: a value nested thousands deep would exhaust the stack of whatever walks it.
  if (textNestsDeeperThan(trimmed, MAX_ANSWER_DEPTH)) {
    return {
      kind: 'unusable',
      reason: `the answer nests arrays or objects more than ${MAX_ANSWER_DEPTH} deep (expected a flat JSON array of file paths)`,
    };
  }
  const whole = WHOLE_FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  const json = parseJson(whole);
  if (json.ok) {
    if (Array.isArray(json.value)) return { kind: 'list', entries: toEntries(json.value) };
    return {
      kind: 'unusable',
      reason: `the answer is JSON but ${shapeOf(json.value)}, not an array of file paths (expected e.g. ["README.md"])`,
    };
  }
  const arrays = stringArraysIn(trimmed);
  const [only, second] = arrays;
  if (only === undefined) {
    return { kind: 'unusable', reason: 'the answer holds no JSON array of file paths (expected e.g. ["README.md"])' };
  }
  if (second !== undefined) {
    return {
      kind: 'unusable',
      reason: 'the answer holds more than one JSON array of file paths; it is ambiguous which one is the pick',
    };
  }
  return { kind: 'list', entries: only };
}
