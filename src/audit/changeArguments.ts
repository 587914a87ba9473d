/** Arguments that differ from the audited ones but should still be valid for the tool's inputSchema. */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shiftInteger(value: number, schema: Record<string, unknown>): number | undefined {
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Infinity;
  if (value + 1 <= max) return value + 1;
  if (value - 1 >= min) return value - 1;
  return undefined;
}

/** Undefined when nothing can be changed safely (then the binding check is not applicable). */
export function changeArguments(
  args: Record<string, unknown>,
  inputSchema: unknown,
): Record<string, unknown> | undefined {
  const properties = isObject(inputSchema) && isObject(inputSchema['properties']) ? inputSchema['properties'] : {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string') return { ...args, [key]: `${value}-changed` };
  }
  for (const [key, raw] of Object.entries(properties)) {
    if (!isObject(raw) || key in args) continue;
    if (raw['type'] === 'string' && raw['enum'] === undefined && raw['format'] === undefined) {
      return { ...args, [key]: 'audit-changed' };
    }
  }
  for (const [key, raw] of Object.entries(properties)) {
    if (!isObject(raw) || raw['type'] !== 'integer') continue;
    const current = typeof args[key] === 'number' ? args[key] : raw['default'];
    if (typeof current !== 'number') continue;
    const shifted = shiftInteger(current, raw);
    if (shifted !== undefined) return { ...args, [key]: shifted };
  }
  return undefined;
}
