/**
 * Text from an untrusted peer, made safe to show: the one home of our sanitisers.
 *
 * `printable` puts a text on one line with nothing invisible (for log lines and error messages that
 * echo input). `terminalSafe` makes text from an untrusted server safe to print on the user's terminal: nothing it contains can
 * move the cursor, recolour or clear the screen, set the window title, plant a hyperlink, reorder
 * characters (bidi overrides) or overwrite a line (carriage return), and no field can flood the dialog.
 *
 * Neutralise, don't hide: CSI sequences (colours, cursor moves: numbers only) are dropped, but the
 * payload of string sequences (OSC titles and hyperlinks, DCS, APC…) stays visible after a `␛` marker,
 * so text the model would read is never invisible to the user reviewing it.
 *
 * `escapeControls` is the one function for repository and model text that enters a prompt, a terminal line, a
 * log line or a result field: every control, format or separator character (Unicode Cc and Cf: bidi overrides such
 * as U+202E, zero-width characters, BEL, ESC) stays visible as an escape (`\n`, `\x1b`, `\u202e`), so what was
 * sent stays readable and can neither end the line, reorder what the reader sees, nor drive the terminal. With
 * `multiline`, line breaks and tabs are kept (a summary printed as text). `escapeControlsDeep` applies it to every
 * string of a JSON value (manifest fields).
 */

/* eslint-disable no-control-regex -- matching control characters is what this module is for */

/** Shown where a terminal control string began. */
export const ESCAPE_MARKER = '\u241B';

export interface TerminalSafeOptions {
  /** Keep line breaks (blank-line runs collapse to one); otherwise every break becomes a space. */
  multiline?: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** CSI: ESC [ or the 8-bit introducer, parameter and intermediate bytes, one final byte. */
const CSI = /(?:\x1B\[|\x9B)[\x30-\x3F]*[\x20-\x2F]*[\x40-\x7E]?/g;
/** String introducers: OSC, DCS, SOS, PM, APC (7-bit and 8-bit forms). */
const STRING_START = /\x1B[\]PX^_]|[\x90\x98\x9D\x9E\x9F]/g;
/** String terminators: BEL, ESC \ and the 8-bit ST. */
const STRING_END = /\x07|\x1B\\|\x9C/g;
/** Any other escape: ESC, intermediates and a final byte (charset switches, keypad modes, RIS…), or a lone ESC. */
const OTHER_ESCAPE = /\x1B[\x20-\x2F]*[\x30-\x7E]?/g;
const LINE_BREAKS = /\r\n|[\r\u2028\u2029\x0B\x0C\x85]/g;
/** C0 (but tab and newline), DEL, C1, and Unicode format characters: bidi overrides, zero-width, BOM. */
const INVISIBLE = /[\x00-\x08\x0E-\x1F\x7F-\x9F]|\p{Cf}/gu;

/**
 * `text` with terminal controls neutralised and at most `maxChars` code points kept; a longer text
 * ends with `… (+N chars)` counting what was cut.
 */
export function terminalSafe(text: string, maxChars: number, options: TerminalSafeOptions = {}): string {
  const limit = Math.max(0, Math.floor(maxChars));
  // Bound the work on huge inputs: only a head is sanitised; the rest is counted as cut.
  const head = Math.min(text.length, limit * 4 + 256);
  let safe = text
    .slice(0, head)
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(CSI, '')
    .replace(STRING_START, ESCAPE_MARKER)
    .replace(STRING_END, '')
    .replace(OTHER_ESCAPE, '')
    .replace(LINE_BREAKS, '\n')
    .replace(INVISIBLE, '')
    .replace(/\t/g, '  ');
  safe = options.multiline ? safe.replace(/[ ]+\n/g, '\n').replace(/\n{3,}/g, '\n\n') : safe.replace(/\s*\n\s*/g, ' ');
  return truncate(safe, limit, text.length - head);
}

function truncate(text: string, limit: number, unread: number): string {
  if (text.length <= limit && unread === 0) return text;
  const points = Array.from(text);
  const cut = Math.max(0, points.length - limit) + unread;
  if (cut === 0) return text;
  return `${points.slice(0, limit).join('')}… (+${cut} chars)`;
}

/**
 * What JSON.stringify leaves raw but a terminal or a line-oriented reader would act on: DEL and C1
 * controls (0x9B is CSI), Unicode format characters (bidi overrides) and the line and paragraph
 * separators. They only occur inside strings, so `\uXXXX` keeps the JSON valid.
 */
const UNSAFE_IN_JSON = /[\x7F-\x9F\u2028\u2029\p{Cf}]/gu;

/** `\uXXXX` per UTF-16 unit (a character past U+FFFF is two). */
function escapeJsonChar(char: string): string {
  let escaped = '';
  for (let index = 0; index < char.length; index++) {
    escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/** JSON that parses to the same value and carries no character a terminal would act on. */
export function terminalSafeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSAFE_IN_JSON, escapeJsonChar);
}

// Control characters, format characters (bidi overrides, zero-width) and line/paragraph separators.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` on one printable line: control and format characters become `?` (for messages that echo input). */
export function printable(text: string): string {
  return text.replace(NOT_PRINTABLE, '?');
}

/** C0 controls, DEL, C1 controls, the line and paragraph separators, format characters, lone surrogates. */
const UNSAFE_IN_LINE =
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
  UNSAFE_IN_LINE.lastIndex = 0;
  const found = UNSAFE_IN_LINE.test(text);
  UNSAFE_IN_LINE.lastIndex = 0;
  return found;
}

export interface EscapeOptions {
  /** Keep line breaks (`\n`, and `\r\n` as `\n`) and tabs: the text stays on its lines. */
  multiline?: boolean;
}

/** The same set without line feed and tab: what a multi-line text must not carry. */
const UNSAFE_IN_TEXT =
  /\r(?!\n)|[\x00-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029]|\p{Cf}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * `text` on one inert line: control, separator and format characters escaped, and, when `maxChars` is given, at
 * most that many UTF-16 code units of it kept (ending with `…(+N chars)`). The work is linear and bounded by
 * `maxChars`. Backslashes are doubled only in text that holds something to escape, so ordinary paths and messages
 * read as they are. With `multiline`, line breaks and tabs stay as they are.
 */
export function escapeControls(text: string, maxChars?: number, options: EscapeOptions = {}): string {
  const limit = maxChars === undefined ? text.length : Math.max(0, Math.floor(maxChars));
  let head = text.length > limit ? text.slice(0, limit) : text;
  // Never keep half of a surrogate pair at the cut.
  if (head.length < text.length && /[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const rest = text.length - head.length;
  let escaped = head;
  if (options.multiline === true) {
    const lines = head.replace(/\r\n/g, '\n');
    UNSAFE_IN_TEXT.lastIndex = 0;
    if (UNSAFE_IN_TEXT.test(lines)) {
      UNSAFE_IN_TEXT.lastIndex = 0;
      escaped = lines.replace(/\\/g, '\\\\').replace(UNSAFE_IN_TEXT, escapeChar);
    } else escaped = lines;
    UNSAFE_IN_TEXT.lastIndex = 0;
  } else if (hasControls(head)) {
    escaped = head.replace(/\\/g, '\\\\').replace(UNSAFE_IN_LINE, escapeChar);
  }
  return rest > 0 ? `${escaped}…(+${rest} chars)` : escaped;
}

/**
 * What renders as nothing (or as a blank that hides what it is) on a terminal, while a model reads it: Unicode
 * format characters (bidi controls, zero-width characters, BOM, tag characters U+E0000–E007F), the other
 * default-ignorable code points (variation selectors, Hangul fillers, the combining grapheme joiner), the braille
 * blank, C0 controls but tab and line breaks, DEL and C1 controls, and lone surrogates.
 */
const RENDERS_INVISIBLY =
  /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]|[\x00-\x08\x0E-\x1F\x7F-\x84\x86-\x9F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
/** Line breaks a model reads as line breaks (NEL is the C1 one): shown as breaks. */
const REVEAL_BREAKS = /\r\n|[\r\u2028\u2029\x0B\x0C\x85]/g;
/** What `revealInvisible` writes for one character: `⟨U+E0041⟩`. */
export const REVEALED_CHAR = /⟨U\+[0-9A-F]{4,6}⟩/g;

export interface RevealedText {
  /** The text with every invisible character written as `⟨U+XXXX⟩`: what a reviewer can read. */
  text: string;
  /** How many characters were written as escapes. */
  invisible: number;
  /** The printable ASCII that tag characters (U+E0020–E007E) spell, in order ('' when none). */
  tags: string;
}

/**
 * `text` with nothing hidden and nothing a terminal acts on: every character that renders invisibly is written as a
 * visible escape (`⟨U+E0041⟩`) and counted, never dropped, so that a reviewer reads what a model will read. ESC
 * becomes `⟨U+001B⟩`, leaving the rest of an escape sequence as inert text. Line breaks stay (or fold into spaces
 * unless `multiline`), tabs become two spaces. Linear in the length of `text`; no bound (callers cut).
 */
export function revealInvisible(text: string, options: TerminalSafeOptions = {}): RevealedText {
  let invisible = 0;
  let tags = '';
  const revealed = text
    .replace(REVEAL_BREAKS, '\n')
    .replace(RENDERS_INVISIBLY, (char) => {
      invisible++;
      const code = char.codePointAt(0) ?? 0;
      if (code >= 0xe0020 && code <= 0xe007e) tags += String.fromCharCode(code - 0xe0000);
      return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
    })
    .replace(/\t/g, '  ');
  return { text: options.multiline ? revealed : revealed.replace(/\n/g, ' '), invisible, tags };
}

/** `text` revealed (see `revealInvisible`) and cut to `maxChars` code points, ending with `… (+N chars)`. */
export function revealedCut(text: string, maxChars: number, options: TerminalSafeOptions = {}): string {
  const limit = Math.max(0, Math.floor(maxChars));
  // Bound the work on huge inputs: only a head is revealed (an escape is at most 10 characters); the rest is counted.
  let head = Math.min(text.length, limit * 2 + 256);
  if (head < text.length && /[\uD800-\uDBFF]/.test(text[head - 1] ?? '')) head--;
  let shown = revealInvisible(text.slice(0, head), options).text;
  if (options.multiline) shown = shown.replace(/[ ]+\n/g, '\n').replace(/\n{3,}/g, '\n\n');
  return truncate(shown, limit, text.length - head);
}

/** `value` with every string in it (keys too) through {@link escapeControls}; other values as they are. */
export function escapeControlsDeep<T>(value: T): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return escapeControls(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [escapeControls(key), walk(child)]));
    }
    return node;
  };
  return walk(value) as T;
}
