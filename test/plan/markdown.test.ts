/** The Markdown builders keep any text on one line, whatever line breaks it carries. */
import { describe, expect, it } from 'vitest';

import { bullets, cell, code, inline } from '../../src/plan/markdown.js';

describe('Markdown builders', () => {
  it('turn every line break, with the blanks around it, into one space', () => {
    const text = 'a \n\n## Verdict\r\n**b**\rc\u2028d';
    expect(inline(text)).toBe('a ## Verdict **b** c d');
    expect(cell(`${text}|e`)).toBe('a ## Verdict **b** c d\\|e');
    expect(code('pick\n## Verdict')).toBe('`pick ## Verdict`');
    expect(bullets(['one\n## Verdict', 'two'])).toBe('- one ## Verdict\n- two');
  });
});
