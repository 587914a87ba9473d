/**
 * A unified diff (`diff -u`, three lines of context) between two texts, as `git apply` and `patch -p1` read it.
 * Common leading and trailing lines are set aside first; the rest is matched by longest common subsequence
 * (a middle too large for that becomes one hunk that replaces it whole).
 */
const CONTEXT = 3;
const MAX_CELLS = 25_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function middleOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] as number) + 1
          : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) {
      ops.push({ kind: '-', line: a[i++] as string });
    } else {
      ops.push({ kind: '+', line: b[j++] as string });
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] as string });
  while (j < m) ops.push({ kind: '+', line: b[j++] as string });
  return ops;
}

function lineOps(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [
    ...a.slice(0, start).map((line) => ({ kind: ' ' as const, line })),
    ...middleOps(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map((line) => ({ kind: ' ' as const, line })),
  ];
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/** The diff of `path` from `before` to `after`, or '' when they are equal. */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const ops = lineOps(splitLines(before), splitLines(after));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const hunks: Array<[number, number]> = [];
  for (const index of changed) {
    const last = hunks.at(-1);
    if (last !== undefined && index - last[1] <= 2 * CONTEXT + 1) last[1] = index;
    else hunks.push([index, index]);
  }
  const out = [`--- a/${path}`, `+++ b/${path}`];
  for (const [first, last] of hunks) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, last + CONTEXT);
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') oldStart++;
      if (op.kind !== '-') newStart++;
    }
    const body = ops.slice(from, to + 1);
    const oldCount = body.filter((op) => op.kind !== '+').length;
    const newCount = body.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const op of body) out.push(`${op.kind}${op.line}`);
  }
  const noNewline = (text: string): boolean => text !== '' && !text.endsWith('\n');
  if (noNewline(before) || noNewline(after)) out.push('\\ No newline at end of file');
  return `${out.join('\n')}\n`;
}
