/**
 * Tool arguments the tool does not know: refused (-32602) with the unknown keys, the known ones and,
 * where one is close, the key the caller probably meant (`max_files` → `maxFiles`).
 */
import { printable } from '../protocol/sanitize.js';

/** Unknown keys quoted in a message are few and short: they are the caller's text. */
const MAX_QUOTED_KEYS = 5;
const MAX_KEY_CHARS = 64;

export interface UnknownArguments {
  unknown: string[];
  known: string[];
  /** Unknown key → the known key it is close to. */
  didYouMean: Record<string, string>;
}

/** Case, `_` and `-` do not count: `max_files`, `MaxFiles` and `max-files` all read as `maxfiles`. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Edit distance, given up once it exceeds `limit` (the names compared are short). */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitute, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known name closest to `name` (same when folded, or at most 2 edits apart), if any. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const target = folded(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(target, folded(candidate), 2);
    if (d <= 2 && (best === undefined || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}

export function describeUnknownArguments(unknown: readonly string[], known: readonly string[]): UnknownArguments {
  const shown = unknown.slice(0, MAX_QUOTED_KEYS).map((key) => printable(key).slice(0, MAX_KEY_CHARS));
  const didYouMean: Record<string, string> = {};
  for (const key of shown) {
    const close = closestName(key, known);
    if (close !== undefined) didYouMean[key] = close;
  }
  return { unknown: shown, known: [...known], didYouMean };
}

/** `unknown argument 'max_files' (did you mean 'maxFiles'?); known arguments: audience, path, maxFiles` */
export function unknownArgumentsMessage(tool: string, described: UnknownArguments): string {
  const parts = described.unknown.map((key) => {
    const close = described.didYouMean[key];
    return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
  });
  const noun = parts.length === 1 ? 'argument' : 'arguments';
  const known = described.known.length === 0 ? 'none' : described.known.join(', ');
  return `Invalid arguments for ${tool}: unknown ${noun} ${parts.join(', ')}; known arguments: ${known}`;
}
