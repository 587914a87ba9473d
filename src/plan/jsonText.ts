/**
 * JSON input the way YAML input is read: a leading byte order mark is dropped, and a key that appears
 * twice in one object is an error (JSON.parse would silently keep the last one). Also a nesting limit
 * for any parsed input, so that validating or printing it cannot exhaust the stack.
 */

export { nestsDeeperThan } from '../protocol/json.js';

export type JsonText =
  | { ok: true; value: unknown }
  | { ok: false; syntax: string }
  | { ok: false; duplicates: Array<{ pointer: string; key: string }> };

interface Frame {
  parent: Frame | undefined;
  /** The key or index of this container in its parent. */
  segment: string | undefined;
  keys: Set<string> | undefined;
  index: number;
  key: string | undefined;
  expectKey: boolean;
}

function escapeSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function pointerOf(frame: Frame): string {
  const segments: string[] = [];
  for (let at: Frame | undefined = frame; at?.segment !== undefined; at = at.parent) segments.push(at.segment);
  return segments
    .reverse()
    .map((segment) => `/${escapeSegment(segment)}`)
    .join('');
}

/** Where a key repeats in one object, for text that is already known to be valid JSON. */
export function duplicateKeys(text: string): Array<{ pointer: string; key: string }> {
  const found: Array<{ pointer: string; key: string }> = [];
  let top: Frame | undefined;
  const child = (): string | undefined =>
    top === undefined ? undefined : top.keys !== undefined ? top.key : String(top.index);
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (top?.keys !== undefined && top.expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) found.push({ pointer: pointerOf(top), key });
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
    } else if (char === '{' || char === '[') {
      const object = char === '{';
      top = {
        parent: top,
        segment: child(),
        keys: object ? new Set() : undefined,
        index: 0,
        key: undefined,
        expectKey: object,
      };
    } else if (char === '}' || char === ']') {
      top = top?.parent;
    } else if (char === ',' && top !== undefined) {
      if (top.keys !== undefined) top.expectKey = true;
      else top.index++;
    }
  }
  return found;
}

export function parseJsonText(text: string): JsonText {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, syntax: (error as Error).message };
  }
  const duplicates = duplicateKeys(body);
  return duplicates.length > 0 ? { ok: false, duplicates } : { ok: true, value };
}
