/** Edits as positions in a text, applied last to first so earlier positions stay valid. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** The text with the edits applied; edits must not overlap. */
export function applyEdits(text: string, edits: readonly TextEdit[], offset = 0): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error(`overlapping edits at ${edit.start}`);
    result = result.slice(0, edit.start - offset) + edit.text + result.slice(edit.end - offset);
    limit = edit.start;
  }
  return result;
}

/** Lower snake case of an identifier or a name (`summaryText` -> `summary_text`), in the kit's step-name alphabet. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 64);
}

/** `base`, or `base_2`, `base_3`… : the first not yet taken (and then taken). */
export function uniqueName(base: string, taken: Set<string>, separator = '_'): string {
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}${separator}${suffix}`;
  taken.add(name);
  return name;
}
