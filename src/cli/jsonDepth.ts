/**
 * A server's result printed as JSON, however deep it nests: values below `maxDepth` levels are
 * replaced by a marker string, so printing never recurses past the limit (`JSON.stringify` of a
 * 10,000-deep value throws "Maximum call stack size exceeded").
 */

/** Levels of nesting printed before the rest of a value is cut. */
export const MAX_PRINT_DEPTH = 64;

/** What stands for a value cut at the depth limit. */
export const CUT_MARKER = `[cut: nested deeper than ${MAX_PRINT_DEPTH} levels]`;

/**
 * `value` with every object or array at depth `maxDepth` replaced by `marker` (depth 0 is `value`
 * itself), and whether anything was cut. Never recurses deeper than `maxDepth`.
 */
export function depthLimited(
  value: unknown,
  maxDepth = MAX_PRINT_DEPTH,
  marker = CUT_MARKER,
): { value: unknown; cut: boolean } {
  let cut = false;
  const walk = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (depth >= maxDepth) {
      cut = true;
      return marker;
    }
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    // `toJSON` is honoured as JSON.stringify would (a Date prints as its string).
    const plain = node as { toJSON?: () => unknown };
    if (typeof plain.toJSON === 'function') return walk(plain.toJSON(), depth);
    const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(node)) copy[key] = walk(item, depth + 1);
    return copy;
  };
  const limited = walk(value, 0);
  return { value: limited, cut };
}
