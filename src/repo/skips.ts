import type { SkipReason, SkippedClass } from './types.js';

/** How many example paths a skipped class keeps. */
export const MAX_SKIP_EXAMPLES = 5;

/** Orders strings by UTF-16 code units, independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Counts skipped entries per reason and keeps the smallest few example paths, so the result does not depend on
 * the order in which a concurrent walk met them.
 */
export class SkipCollector {
  private readonly classes = new Map<SkipReason, { count: number; examples: string[] }>();

  private entryFor(reason: SkipReason): { count: number; examples: string[] } {
    let entry = this.classes.get(reason);
    if (!entry) {
      entry = { count: 0, examples: [] };
      this.classes.set(reason, entry);
    }
    return entry;
  }

  add(reason: SkipReason, example: string): void {
    const entry = this.entryFor(reason);
    entry.count++;
    const { examples } = entry;
    if (examples.includes(example)) return;
    const last = examples[examples.length - 1];
    if (examples.length >= MAX_SKIP_EXAMPLES && last !== undefined && compareCodeUnits(example, last) >= 0) return;
    examples.push(example);
    examples.sort(compareCodeUnits);
    if (examples.length > MAX_SKIP_EXAMPLES) examples.length = MAX_SKIP_EXAMPLES;
  }

  /** Adds classes counted elsewhere (their examples compete with the ones already kept). */
  merge(classes: readonly SkippedClass[]): void {
    for (const entry of classes) {
      for (const example of entry.examples) this.add(entry.reason, example);
      this.entryFor(entry.reason).count += entry.count - entry.examples.length;
    }
  }

  toArray(): SkippedClass[] {
    return [...this.classes.entries()]
      .filter(([, entry]) => entry.count > 0)
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([reason, entry]) => ({ reason, count: entry.count, examples: [...entry.examples] }));
  }
}
