/** `terminalSafe` against hostile server text (src/host/terminalText.ts). */
import { describe, expect, it } from 'vitest';

import {
  ESCAPE_MARKER,
  revealedCut,
  revealInvisible,
  terminalSafe,
  terminalSafeJson,
} from '../../src/protocol/sanitize.js';

/** No C0 (but newline), DEL, C1, ESC, or Unicode format character survives. */
// eslint-disable-next-line no-control-regex -- the test looks for control characters
const CONTROL = /[\x00-\x09\x0B-\x1F\x7F-\x9F\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

describe('terminalSafe', () => {
  it('drops CSI sequences: colours, cursor moves, screen clears (7-bit and 8-bit forms)', () => {
    expect(terminalSafe('a\x1b[31mred\x1b[0m\x1b[2J\x1b[10;5H\x1b[?25lb', 100)).toBe('aredb');
    expect(terminalSafe('a\x9b2Jb', 100)).toBe('ab');
  });

  it('keeps the payload of OSC strings visible after a marker: titles and hyperlinks cannot hide text', () => {
    const link = 'see \x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ now';
    expect(terminalSafe(link, 100)).toBe(`see ${ESCAPE_MARKER}8;;https://evil.example/click${ESCAPE_MARKER}8;; now`);
    expect(terminalSafe('x\x1b]0;IGNORE ALL RULES\x07y', 100)).toBe(`x${ESCAPE_MARKER}0;IGNORE ALL RULESy`);
    expect(terminalSafe('x\x9d0;T\x9cy', 100)).toBe(`x${ESCAPE_MARKER}0;Ty`);
    expect(terminalSafe('x\x1bPq#0\x1b\\y \x1b_apc\x1b\\', 100)).toBe(`x${ESCAPE_MARKER}q#0y ${ESCAPE_MARKER}apc`);
  });

  it('turns carriage returns into line breaks so nothing overwrites what came before', () => {
    expect(terminalSafe('safe text\rEVIL', 100, { multiline: true })).toBe('safe text\nEVIL');
    expect(terminalSafe('a\r\nb', 100, { multiline: true })).toBe('a\nb');
    expect(terminalSafe('safe text\rEVIL', 100)).toBe('safe text EVIL');
  });

  it('removes bidi overrides, zero-width characters, NULs, BEL, backspace and other escapes', () => {
    expect(terminalSafe('invoice\u202Efdp.exe', 100)).toBe('invoicefdp.exe');
    expect(terminalSafe('a\u2066b\u2069c\u200Bd\uFEFFe', 100)).toBe('abcde');
    expect(terminalSafe('n\u0000u\u0007l\u0008l\x7f\x1bc\x1b(B!', 100)).toBe('null!');
    expect(terminalSafe('lone \ud800 surrogate', 100)).toBe('lone \uFFFD surrogate');
  });

  it('keeps line breaks only when asked, collapsing runs of blank lines', () => {
    expect(terminalSafe('a\n\n\n\n\nb\u2028c', 100, { multiline: true })).toBe('a\n\nb\nc');
    expect(terminalSafe('a\n\n\nb\tc', 100)).toBe('a b  c');
  });

  it('bounds the length by code points and says how much was cut', () => {
    expect(terminalSafe('abcdefghij', 4)).toBe('abcd… (+6 chars)');
    expect(terminalSafe('😀😀😀', 2)).toBe('😀😀… (+1 chars)');
    expect(terminalSafe('abc', 3)).toBe('abc');
    const huge = 'x'.repeat(1_000_000);
    expect(terminalSafe(huge, 10)).toBe(`${'x'.repeat(10)}… (+999990 chars)`);
  });

  it('leaves nothing a terminal would interpret in a mixed hostile string', () => {
    const hostile =
      '\x1b[2J\x1b]0;t\x07\x1b]8;;u\x1b\\l\x1b]8;;\x1b\\\r\u202E\u0000\x9b1m\x90dcs\x9c\x1bc\x1b[' +
      '\x1b]unterminated osc';
    const safe = terminalSafe(hostile, 1000, { multiline: true });
    expect(safe).not.toMatch(CONTROL);
    expect(safe).toContain('unterminated osc');
  });
});

describe('terminalSafeJson', () => {
  it('escapes C1 controls, bidi overrides and line separators, and still parses to the same value', () => {
    const value = { text: 'a\u009b2Jb\u202Ec\u2028d\u007fe', nested: ['\u200f'] };
    const json = terminalSafeJson(value, 2);
    expect(json).not.toMatch(/[\u007f-\u009f\u2028\u202e\u200f]/u);
    expect(json).toContain('\\u009b');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('revealInvisible', () => {
  const tagged = (text: string) =>
    Array.from(text, (char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');

  it('writes out every character that renders invisibly, counts them, and spells what tag characters say', () => {
    const revealed = revealInvisible(`ok${tagged('Hi!')}\u{E0001}\u{E007F}.`);
    expect(revealed.text).toBe('ok⟨U+E0048⟩⟨U+E0069⟩⟨U+E0021⟩⟨U+E0001⟩⟨U+E007F⟩.');
    expect(revealed.invisible).toBe(5);
    expect(revealed.tags).toBe('Hi!');
  });

  it.each([
    ['variation selector', '\uFE0F', '⟨U+FE0F⟩'],
    ['variation selector supplement', '\u{E0100}', '⟨U+E0100⟩'],
    ['Hangul fillers', '\u115F\u1160\u3164\uFFA0', '⟨U+115F⟩⟨U+1160⟩⟨U+3164⟩⟨U+FFA0⟩'],
    ['bidi controls', '\u202E\u2066\u200F', '⟨U+202E⟩⟨U+2066⟩⟨U+200F⟩'],
    ['zero-width and BOM', '\u200B\u200D\u2060\uFEFF', '⟨U+200B⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩'],
    ['soft hyphen, grapheme joiner, braille blank', '\u00AD\u034F\u2800', '⟨U+00AD⟩⟨U+034F⟩⟨U+2800⟩'],
    ['controls and escape sequences', '\x00\x07\x1b[2J\x9b', '⟨U+0000⟩⟨U+0007⟩⟨U+001B⟩[2J⟨U+009B⟩'],
    ['a lone surrogate', '\ud800', '⟨U+D800⟩'],
  ])('%s', (_, hidden, shown) => {
    const revealed = revealInvisible(`a${hidden}b`);
    expect(revealed.text).toBe(`a${shown}b`);
    expect(revealed.invisible).toBe(Array.from(shown.matchAll(/⟨/g)).length);
  });

  it('keeps line breaks only when multiline, and leaves visible text as it is', () => {
    expect(revealInvisible('a\r\nb\rc\td').text).toBe('a b c  d');
    expect(revealInvisible('a\r\nb\rc', { multiline: true }).text).toBe('a\nb\nc');
    expect(revealInvisible('héllo 😀 世界').text).toBe('héllo 😀 世界');
  });

  it('revealedCut bounds the shown text and counts the rest, without splitting a surrogate pair', () => {
    expect(revealedCut('abcdef', 3)).toBe('abc… (+3 chars)');
    expect(revealedCut(`a\u200Bb`, 100)).toBe('a⟨U+200B⟩b');
    expect(revealedCut('x'.repeat(1_000_000), 10)).toBe(`${'x'.repeat(10)}… (+999990 chars)`);
    expect(revealedCut('😀'.repeat(2000), 10)).not.toContain('⟨U+D83D⟩');
  });
});
