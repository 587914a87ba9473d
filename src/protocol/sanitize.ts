/**
 * Peer-supplied text made inert where it is embedded in a line-oriented sink: the server's log, a prompt's
 * candidate list. Nothing it contains can end the line, move the cursor, clear the screen or reorder what follows
 * (bidi overrides): every control, format or separator character is shown as a visible escape (`\n`, `\x1b`,
 * `\u202e`), so the text stays readable and can be told apart from what the line says around it.
 */

/* eslint-disable no-control-regex -- matching control characters is what this module is for */

/** C0 controls, DEL, C1 controls, the line and paragraph separators, format characters, lone surrogates. */
const UNSAFE =
  /[\x00-\x1F\x7F-\x9F\u2028\u2029]|\p{Cf}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Whether `text` holds a character {@link escapeControls} would escape (a backslash alone does not count). */
export function hasControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/**
 * `text` on one inert line: control, separator and format characters escaped, and, when `maxChars` is given, at
 * most that many UTF-16 code units of it kept (ending with `…(+N chars)`). The work is linear and bounded by
 * `maxChars`. Backslashes are doubled only in text that holds something to escape, so ordinary paths and messages
 * read as they are.
 */
export function escapeControls(text: string, maxChars?: number): string {
  const limit = maxChars === undefined ? text.length : Math.max(0, Math.floor(maxChars));
  let head = text.length > limit ? text.slice(0, limit) : text;
  // Never keep half of a surrogate pair at the cut.
  if (head.length < text.length && /[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const rest = text.length - head.length;
  const escaped = hasControls(head) ? head.replace(/\\/g, '\\\\').replace(UNSAFE, escapeChar) : head;
  return rest > 0 ? `${escaped}…(+${rest} chars)` : escaped;
}
