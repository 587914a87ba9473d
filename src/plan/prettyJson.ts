/**
 * JSON printed the way Prettier prints it (objects expanded, arrays of scalars on one line when they
 * fit the print width), so generated files and golden files pass `prettier --check` unchanged.
 */
export const PRINT_WIDTH = 120;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isScalar(value: Json): value is null | boolean | number | string {
  return value === null || typeof value !== 'object';
}

function isExpandedObject(value: Json): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0;
}

/** The one-line form, or undefined when the value cannot be flat (a non-empty object inside). */
function flat(value: Json): string | undefined {
  if (isScalar(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const part = flat(item);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `[${parts.join(', ')}]`;
  }
  return Object.keys(value).length === 0 ? '{}' : undefined;
}

function mustBreakArray(items: readonly Json[]): boolean {
  if (items.some(isExpandedObject)) return true;
  return (
    items.length > 1 && items.every((item) => Array.isArray(item) && item.length > 1) // prettier breaks matrices
  );
}

function print(value: Json, indent: string, used: number, suffix: string): string {
  if (isScalar(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const oneLine = mustBreakArray(value) ? undefined : flat(value);
    if (oneLine !== undefined && used + oneLine.length + suffix.length <= PRINT_WIDTH) return oneLine;
    if (value.every((item) => typeof item === 'number')) {
      const lines: string[] = [];
      let line = '';
      for (const [index, item] of value.entries()) {
        const part = `${JSON.stringify(item)}${index < value.length - 1 ? ',' : ''}`;
        if (line !== '' && inner.length + line.length + 1 + part.length > PRINT_WIDTH) {
          lines.push(line);
          line = part;
        } else line = line === '' ? part : `${line} ${part}`;
      }
      lines.push(line);
      return `[\n${lines.map((l) => `${inner}${l}`).join('\n')}\n${indent}]`;
    }
    const items = value.map((item, index) => {
      const comma = index < value.length - 1 ? ',' : '';
      return `${inner}${print(item, inner, inner.length, comma)}${comma}`;
    });
    return `[\n${items.join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item], index) => {
    const prefix = `${inner}${JSON.stringify(key)}: `;
    const comma = index < entries.length - 1 ? ',' : '';
    return `${prefix}${print(item, inner, prefix.length, comma)}${comma}`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Pretty JSON with a trailing newline. `undefined` members are dropped, as JSON.stringify does. */
export function prettyJson(value: unknown): string {
  const normalized = JSON.parse(JSON.stringify(value)) as Json;
  return `${print(normalized, '', 0, '')}\n`;
}
