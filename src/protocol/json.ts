/**
 * Facts about untrusted JSON shared by every module that reads it: the plain-object guard, and nesting limits, so
 * that no parsed value a peer or a model sends is ever walked by recursive code (`JSON.stringify`, validators,
 * `structuredClone`) deeper than the stack allows.
 */

/**
 * Nesting any model or host answer may have (arrays and objects): real answers nest a handful of levels (a tool
 * call's input, a sampling result's content blocks).
 */
export const MAX_ANSWER_DEPTH = 64;

/** The one plain-object guard shared by every module that reads untrusted JSON. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when objects and arrays in `value` nest deeper than `limit` levels (checked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * True when JSON text opens more than `limit` arrays or objects at once (brackets inside strings do not count): one
 * pass over the text, told before it is parsed. Text that is not JSON is judged the same way.
 */
export function textNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}
