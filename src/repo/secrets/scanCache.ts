/**
 * Scans kept by what was scanned: the findings for a text (and the file name its rules saw) are kept under a SHA-256
 * digest of both, so that the same text is not scanned twice — a repeated first round on an unchanged repository
 * builds the same pick prompt, and a repeated pick reads the same files. The scan is a pure function of the text
 * and the name, so a kept answer can never be stale: any other text, however slightly changed, has another digest.
 *
 * Nothing of the text is kept (a digest and the findings' offsets and kinds), so no secret lives on in the cache.
 * Bounded: at most `maxEntries` scans (least recently used dropped first), none with more than `maxFindings`
 * findings, and an entry not used for `idleMs` is dropped (at the next use of the cache, or by the sweep).
 */
import { createHash } from 'node:crypto';

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

interface Kept<Finding> {
  findings: readonly Finding[];
  usedAt: number;
}

/** The digest of a scan's input. UTF-16 code units as they are, so that no two strings share one (lone surrogates). */
function keyOf(text: string, filePath: string): string {
  return createHash('sha256')
    .update(`${filePath.length}:${filePath}\0`, 'utf16le')
    .update(text, 'utf16le')
    .digest('base64');
}

export function createScanCache<Finding extends object>(options: ScanCacheOptions = {}): ScanCache<Finding> {
  const maxEntries = options.maxEntries ?? 256;
  const maxFindings = options.maxFindings ?? 64;
  const idleMs = options.idleMs ?? 600_000;
  const now = options.now ?? Date.now;
  // Least recently used first: Map keeps insertion order, and an entry used is moved to the end.
  const kept = new Map<string, Kept<Finding>>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = (at: number): void => {
    for (const [key, entry] of kept) {
      if (at - entry.usedAt < idleMs) break;
      kept.delete(key);
    }
    if (kept.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  return {
    get(text, filePath) {
      const at = now();
      sweep(at);
      const key = keyOf(text, filePath);
      const entry = kept.get(key);
      if (entry === undefined) return undefined;
      kept.delete(key);
      entry.usedAt = at;
      kept.set(key, entry);
      return entry.findings.map((finding) => ({ ...finding }));
    },
    set(text, filePath, findings) {
      if (findings.length > maxFindings || maxEntries <= 0) return;
      const at = now();
      sweep(at);
      const key = keyOf(text, filePath);
      kept.delete(key);
      while (kept.size >= maxEntries) kept.delete(kept.keys().next().value as string);
      kept.set(key, { findings: findings.map((finding) => Object.freeze({ ...finding })), usedAt: at });
      // Idle entries go even if the cache is never used again (never keeping the process alive).
      sweeper ??= setInterval(() => sweep(now()), Math.max(50, idleMs / 2)).unref();
    },
    get size() {
      return kept.size;
    },
    clear() {
      kept.clear();
      sweep(now());
    },
  };
}
