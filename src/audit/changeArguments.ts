/**
 * Arguments that differ from the audited ones but should still be valid for the tool's inputSchema.
 * The state check confirms they are (a baseline call) before it trusts a refusal under them.
 */

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

/** Another value for a string property, within what its schema says; undefined when none is safe. */
function otherString(value: string | undefined, schema: Record<string, unknown>): string | undefined {
  if (Array.isArray(schema['enum'])) {
    return schema['enum'].find((option): option is string => typeof option === 'string' && option !== value);
  }
  if ('const' in schema || schema['pattern'] !== undefined || schema['format'] !== undefined) return undefined;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const candidate = value === undefined ? 'audit-changed' : `${value}-changed`;
  if (candidate.length <= maxLength) return candidate;
  if (value !== undefined && value.length > 0 && value.length >= minLength) {
    return `${value.slice(0, -1)}${value.endsWith('x') ? 'y' : 'x'}`;
  }
  return undefined;
}

/** Undefined when nothing can be changed safely (then the binding check is not applicable). */
export function changeArguments(
  args: Record<string, unknown>,
  inputSchema: unknown,
): Record<string, unknown> | undefined {
  const properties = isObject(inputSchema) && isObject(inputSchema['properties']) ? inputSchema['properties'] : {};
  const schemaOf = (key: string): Record<string, unknown> => {
    const raw = properties[key];
    return isObject(raw) ? raw : {};
  };
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const other = otherString(value, schemaOf(key));
    if (other !== undefined) return { ...args, [key]: other };
  }
  // An unused string property: free text first, then another member of an enum than its default.
  for (const enums of [false, true]) {
    for (const [key, raw] of Object.entries(properties)) {
      if (!isObject(raw) || key in args || raw['type'] !== 'string' || Array.isArray(raw['enum']) !== enums) continue;
      const other = otherString(typeof raw['default'] === 'string' ? raw['default'] : undefined, raw);
      if (other !== undefined) return { ...args, [key]: other };
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
