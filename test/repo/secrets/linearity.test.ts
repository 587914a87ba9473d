/**
 * Issue 26: the redactor's work grows linearly with its input, on the inputs that stalled the server (a summary of
 * GitHub tokens joined by `-`, AWS key IDs joined by `.`, JWT-shaped text). Work is counted, not timed: the
 * characters handed to the rules (scannedChars) and the characters the widening of findings looked at (mergeSteps),
 * on n and 4n characters. Before, each finding was widened to the end of its run of token characters by walking it
 * again: the steps grew with the square of the run.
 */
import { describe, expect, it } from 'vitest';

import { mergeSteps } from '../../../src/repo/secrets/merge.js';
import {
  keptScans,
  OVERLAP_CHARS,
  redactText,
  scannedChars,
  SLICE_CHARS,
  slicesOf,
} from '../../../src/repo/secrets/scanner.js';
import { fake } from './corpus.js';
import { worstInputs } from './worstInputs.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

async function workOn(text: string): Promise<{ chars: number; steps: number; count: number; leftover: boolean }> {
  keptScans().clear();
  const chars = scannedChars();
  const steps = mergeSteps();
  const result = await redactText(text);
  return {
    chars: scannedChars() - chars,
    steps: mergeSteps() - steps,
    count: result.count,
    leftover: /ghp_|AKIA|eyJ/.test(result.text),
  };
}

describe('the redactor works in time linear in its input', () => {
  const small = worstInputs(32_000);
  const large = worstInputs(128_000);
  it.each(Object.keys(small))('%s: 4x the text is at most 4.5x the work, and every token goes', async (name) => {
    const n = await workOn(small[name]!);
    const n4 = await workOn(large[name]!);
    expect(n.count).toBeGreaterThan(0);
    expect(n4.leftover).toBe(false);
    expect(n4.chars / n.chars).toBeLessThanOrEqual(4.5);
    expect(n4.steps / Math.max(1, n.steps)).toBeLessThanOrEqual(4.5);
    // Widening looks at each character once at most.
    expect(n4.steps).toBeLessThanOrEqual(large[name]!.length + 2);
  });

  it('a long text is scanned in bounded slices that cover it, cut at line breaks where they can be', () => {
    const lines = Array.from({ length: 4_000 }, (_, index) => `line ${index} ${'x'.repeat(index % 50)}`).join('\n');
    const oneLine = 'y'.repeat(100_000);
    for (const text of [lines, oneLine]) {
      const slices = slicesOf(text);
      expect(slices[0]![0]).toBe(0);
      expect(slices[slices.length - 1]![1]).toBe(text.length);
      for (const [index, [from, to]] of slices.entries()) {
        expect(to - from).toBeLessThanOrEqual(SLICE_CHARS + OVERLAP_CHARS);
        if (index > 0) expect(from).toBeLessThanOrEqual(slices[index - 1]![1]);
      }
    }
    // Cut at line breaks: the slices of a text of short lines do not overlap.
    const cuts = slicesOf(lines);
    for (let index = 1; index < cuts.length; index++) expect(cuts[index]![0]).toBe(cuts[index - 1]![1]);
  });

  it('a token across a slice boundary inside one long line is found whole', async () => {
    const token = `ghp_${fake('boundary', 36, ALNUM)}`;
    const text = `${'z '.repeat(SLICE_CHARS / 2 - 10)}${token}${' z'.repeat(2_000)}`;
    const result = await redactText(text);
    expect(result.text).not.toContain(token.slice(4, 14));
    expect(result.count).toBe(1);
  });
});
