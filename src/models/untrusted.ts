/**
 * What a server-owned model's answer says about itself is untrusted input: whatever answers at the
 * configured base URL chooses the token counts, the model name and the size of the text. These
 * helpers make them safe to add up, to log on one line, and to return in `structuredContent`.
 */
import type { CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/server';

/** The largest answer taken from a server-owned model: the same bound as the host's answers. */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** Model names longer than this are cut (with an ellipsis) in logs and results. */
export const MAX_MODEL_NAME_LENGTH = 128;

/** A reported token count when it is a non-negative safe integer; undefined (unknown) otherwise. */
export function tokenCount(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return undefined;
  return value === 0 ? 0 : value; // never -0
}

/** `a + b`, saturating at the largest safe integer so that totals stay exact integers. */
export function addTokens(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_SAFE_INTEGER);
}

// Control characters, format characters (bidi overrides, zero-width) and line/paragraph separators.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const SPACES = /\s+/gu;

/**
 * A model name fit for a log line and a result: no control or format characters, no whitespace
 * (which would blur the `key=value` fields of a log line), at most `MAX_MODEL_NAME_LENGTH` code
 * points. `fallback` (itself cleaned) when nothing is left.
 */
export function displayModelName(name: string | undefined, fallback = 'unknown'): string {
  // Cut first, so that a huge name costs nothing; what survives the cleaning is cut again below.
  const cleaned = (name ?? '')
    .slice(0, MAX_MODEL_NAME_LENGTH * 8)
    .replace(INVISIBLE, '')
    .replace(SPACES, '_');
  if (cleaned === '') return fallback === 'unknown' ? fallback : displayModelName(fallback);
  const points = [...cleaned];
  return points.length <= MAX_MODEL_NAME_LENGTH ? cleaned : `${points.slice(0, MAX_MODEL_NAME_LENGTH - 1).join('')}…`;
}

/** The size of an answer's content: UTF-8 bytes of its text, and of the JSON of any other block. */
export function answerBytes(answer: CreateMessageResult | CreateMessageResultWithTools): number {
  const blocks: unknown[] = Array.isArray(answer.content) ? answer.content : [answer.content];
  let bytes = 0;
  for (const block of blocks) {
    const text = (block as { type?: unknown; text?: unknown } | null)?.text;
    bytes += Buffer.byteLength(typeof text === 'string' ? text : (JSON.stringify(block) ?? ''), 'utf8');
  }
  return bytes;
}

/**
 * Whether an answer is one text, image or audio block: what a request without tools gets. An answer
 * with several blocks, `tool_use` or `tool_result` (tools in sampling, SEP-1577) is not.
 */
export function isPlainAnswer(
  answer: CreateMessageResult | CreateMessageResultWithTools,
): answer is CreateMessageResult {
  const { content } = answer;
  return !Array.isArray(content) && content.type !== 'tool_use' && content.type !== 'tool_result';
}
