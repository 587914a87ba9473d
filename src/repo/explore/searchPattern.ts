/**
 * The search tool's pattern: a fixed string, or a regular expression run by RE2JS (RE2's linear-time engine in
 * JavaScript), so no pattern can backtrack catastrophically whatever the input. Case-sensitive; `(?i)` turns case
 * off inside a regular expression. The engine loads at the first regular expression (most runs never search).
 */
import type { RE2JS } from 're2js';

export interface LineMatcher {
  test(line: string): boolean;
}

/** The matcher for `pattern`, or the reason it is not a valid expression. */
export async function compileSearchPattern(
  pattern: string,
  regex: boolean,
): Promise<LineMatcher | { invalid: string }> {
  if (!regex) return { test: (line) => line.includes(pattern) };
  const engine = (await import('re2js')).RE2JS;
  let compiled: RE2JS;
  try {
    compiled = engine.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { invalid: message.replace(/\s+/g, ' ').slice(0, 160) };
  }
  return { test: (line) => compiled.matcher(line).find() };
}
