/**
 * Scans kept by what was scanned: the findings for a text (and the file name its rules saw) are kept under a digest
 * of both (digestCache.ts), so that the same text is not scanned twice — a repeated first round on an unchanged
 * repository builds the same pick prompt, and a repeated pick reads the same files. The scan is a pure function of
 * the text and the name, so a kept answer can never be stale.
 *
 * Nothing of the text is kept (a digest and the findings' offsets and kinds), so no secret lives on in the cache.
 * Bounded: at most `maxEntries` scans (least recently used dropped first), none with more than `maxFindings`
 * findings, and an entry not used for `idleMs` is dropped.
 */
import { createDigestCache } from '../digestCache.js';

export interface ScanCacheOptions {
  /** Scans kept at once. Default 256. */
  maxEntries?: number;
  /** A scan with more findings than this is not kept. Default 64. */
  maxFindings?: number;
  /** A scan not used for this long is dropped. Default 10 minutes. */
  idleMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** `Finding` is the scanner's finding (scanner.ts): plain objects, copied in and out. */
export interface ScanCache<Finding extends object> {
  /** The kept findings for `text` scanned under `filePath` (copies), or undefined. */
  get(text: string, filePath: string): Finding[] | undefined;
  /** Keeps the findings of a scan just made. */
  set(text: string, filePath: string, findings: readonly Finding[]): void;
  /** Scans kept now. */
  readonly size: number;
  clear(): void;
}

export function createScanCache<Finding extends object>(options: ScanCacheOptions = {}): ScanCache<Finding> {
  const maxFindings = options.maxFindings ?? 64;
  const kept = createDigestCache<readonly Finding[]>({
    maxEntries: options.maxEntries ?? 256,
    ...(options.idleMs !== undefined && { idleMs: options.idleMs }),
    ...(options.now !== undefined && { now: options.now }),
  });
  return {
    get: (text, filePath) => kept.get([filePath, text])?.map((finding) => ({ ...finding })),
    set(text, filePath, findings) {
      if (findings.length > maxFindings) return;
      kept.set(
        [filePath, text],
        findings.map((finding) => Object.freeze({ ...finding })),
      );
    },
    get size() {
      return kept.size;
    },
    clear: () => kept.clear(),
  };
}
