/**
 * Whether a `summary` answer can be used. Any non-empty prose is a summary; an empty or blank reply,
 * or a short reply that is a refusal ("I'm sorry, but I can't…", "As an AI…"), is not. Pure: the
 * caller decides what an unusable answer means.
 */

/** A refusal is short: a long answer that happens to contain such a phrase is a summary. */
const MAX_REFUSAL_CHARS = 400;

const REFUSAL =
  /^(?:(?:i(?:'|’)?m sorry|i am sorry|sorry|i apologi[sz]e|unfortunately|apologies)\b[\s,.!:;-]*(?:but\s+)?)?(?:i|we)(?:(?:'|’)?m| am| are)?\s+(?:can(?:not|(?:'|’)t)|could ?n(?:o|(?:'|’))t|won(?:'|’)t|will not|unable to|not able to|must decline|(?:have to|need to) decline|do(?:n(?:'|’)t| not) feel comfortable)\b/i;
const AS_AN_AI = /^as an ai\b/i;

export type SummaryCheck = { kind: 'summary'; text: string } | { kind: 'unusable'; reason: string };

export function checkSummaryText(answer: string): SummaryCheck {
  const text = answer.trim();
  if (text === '') return { kind: 'unusable', reason: 'the summary is empty' };
  if (text.length <= MAX_REFUSAL_CHARS && (REFUSAL.test(text) || AS_AN_AI.test(text))) {
    return { kind: 'unusable', reason: 'the answer is a refusal, not a summary' };
  }
  return { kind: 'summary', text };
}
