/**
 * The content scanner and redactor: secretlint's recommended rule preset plus our rules for the kinds the preset
 * misses (extraRules.ts, providerRules.ts), run by ruleSet.ts. Each finding is replaced by `[redacted: <kind>]`;
 * the rest of the text stays.
 *
 * The cost is linear in the text, whatever it holds, and no call holds the event loop long:
 * - a long text is scanned in slices of {@link SLICE_CHARS} (cut at a line break where one is near, else with an
 *   overlap of {@link OVERLAP_CHARS}, so a token across the cut is seen whole by one of the two slices), and the
 *   scan yields to the event loop between slices;
 * - a private-key block is found on the whole text first (it spans lines, so no slice may cut it off);
 * - findings are widened and merged in one pass (merge.ts), never by scanning a run again.
 *
 * The rules are loaded on first use with a dynamic `import()`, so listing, `--help` and start-up never pay for them.
 * Configuration, on purpose: the AWS rule's ID scan is on (bare access key IDs are found, not only labelled secret
 * keys); the preset's comment filter is not run (a repository must not be able to switch redaction off with a
 * `secretlint-disable` comment in its own files).
 */
import { loadOnce } from '../../loadOnce.js';
import { mergeFindings, type SecretFinding } from './merge.js';
import type { RuleSet } from './ruleSet.js';
import { createScanCache, type ScanCache } from './scanCache.js';

export type { SecretFinding } from './merge.js';

export interface RedactedText {
  text: string;
  /** Secrets replaced, per kind (only kinds found). */
  kinds: Map<string, number>;
  /** How many secrets were replaced. */
  count: number;
}

/** The marker that replaces a secret. */
export function formatRedactionMarker(kind: string): string {
  return `[redacted: ${kind}]`;
}

/** A text longer than this is scanned in slices, the event loop served between them. */
export const SLICE_CHARS = 8 * 1024;
/** Where a slice must be cut inside a line, the next one starts this much earlier. */
export const OVERLAP_CHARS = 2 * 1024;

/** The rule set, built at the first scan. */
const loadRuleSet = loadOnce(async (): Promise<RuleSet> => (await import('./ruleSet.js')).loadRules());

/** The process's scans kept by digest (scanCache.ts). */
const scans = createScanCache<SecretFinding>();

/** The process's scan cache: how many scans it keeps (tests). */
export function keptScans(): Pick<ScanCache<SecretFinding>, 'size' | 'clear'> {
  return scans;
}

let ruleChars = 0;

/** Characters handed to the rules since the process started (tests count work with it, not time). */
export function scannedChars(): number {
  return ruleChars;
}

/** The slices `[from, to)` a text is scanned in: consecutive, each at most SLICE_CHARS + OVERLAP_CHARS long. */
export function slicesOf(text: string): Array<[number, number]> {
  const slices: Array<[number, number]> = [];
  let from = 0;
  while (text.length - from > SLICE_CHARS) {
    const target = from + SLICE_CHARS;
    const lineEnd = text.lastIndexOf('\n', target - 1);
    if (lineEnd >= from + SLICE_CHARS / 2) {
      slices.push([from, lineEnd + 1]);
      from = lineEnd + 1;
    } else {
      slices.push([from, target]);
      from = target - OVERLAP_CHARS;
    }
  }
  slices.push([from, text.length]);
  return slices;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function lint(text: string, filePath: string): Promise<SecretFinding[]> {
  const rules = await loadRuleSet();
  const findings = rules.whole(text);
  const slices = slicesOf(text);
  for (const [index, [from, to]] of slices.entries()) {
    if (index > 0) await nextTurn();
    ruleChars += to - from;
    const slice = from === 0 && to === text.length ? text : text.slice(from, to);
    for (const finding of rules.slice(slice, filePath)) {
      findings.push({ ...finding, start: finding.start + from, end: finding.end + from });
    }
  }
  return findings;
}

/** Finds the secrets in `text`; `filePath` (root-relative) lets file-type rules apply (service-account JSON). */
export async function scanText(text: string, filePath = ''): Promise<SecretFinding[]> {
  if (text.length === 0) return [];
  // The same text under the same name was scanned already: the same findings (scanCache.ts).
  const kept = scans.get(text, filePath);
  if (kept !== undefined) return kept;
  const findings = mergeFindings(text, await lint(text, filePath));
  scans.set(text, filePath, findings);
  return findings;
}

/** `text` with every secret replaced by its marker, and what was replaced. */
export async function redactText(text: string, filePath = ''): Promise<RedactedText> {
  return applyFindings(text, await scanWhole(text, filePath));
}

/** The findings of a whole text (a file's content, before any window or cut is taken from it). */
export function scanWhole(text: string, filePath = ''): Promise<SecretFinding[]> {
  return scanText(withoutNul(text), filePath);
}

/** The text with each NUL (which ends a private-key match: see extraRules.ts) as U+FFFD, at the same offsets. */
function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}

/** Between texts scanned together: a line break stops line-bound patterns, the NUL stops the rest. */
const JOIN = '\n\0\n';

/** A text to redact whole, of which only the first `keep` characters are shown (a read cut by its budget). */
export interface CutText {
  text: string;
  /** Characters shown; a secret across the cut is replaced whole (its marker ends the text). Default all. */
  keep?: number;
}

/**
 * Several texts redacted in one scan (a scan has a fixed cost of its own, larger than that of a few KiB of text):
 * the texts are joined, and each finding is clipped to the text it lies in. Each text is decided whole, then cut
 * at its `keep`: a cut never leaves a part of a secret.
 */
export async function redactTexts(texts: ReadonlyArray<string | CutText>): Promise<RedactedText[]> {
  const entries = texts.map((entry) => (typeof entry === 'string' ? { text: entry } : entry));
  const keepOf = (entry: CutText): number => Math.min(entry.keep ?? entry.text.length, entry.text.length);
  if (entries.length === 1) {
    const only = entries[0]!;
    return [applyFindings(only.text, await scanWhole(only.text), 0, keepOf(only))];
  }
  if (entries.length === 0) return [];
  // A NUL inside a text would end a private-key match early: the scanned copy has none but the separators (same
  // length, so the offsets still apply to the texts as they are).
  const joined = entries.map((entry) => withoutNul(entry.text)).join(JOIN);
  const findings = await scanText(joined);
  // Findings are sorted and apart: one walk hands each text the ones that lie in it.
  let offset = 0;
  let first = 0;
  return entries.map((entry) => {
    const start = offset;
    const end = start + entry.text.length;
    offset = end + JOIN.length;
    while (first < findings.length && findings[first]!.end <= start) first++;
    const own: SecretFinding[] = [];
    for (let at = first; at < findings.length && findings[at]!.start < end; at++) {
      const finding = findings[at]!;
      own.push({ ...finding, start: Math.max(finding.start, start) - start, end: Math.min(finding.end, end) - start });
    }
    return applyFindings(entry.text, own, 0, keepOf(entry));
  });
}

/**
 * The window `[from, to)` of `text` with `findings` (of the whole text, sorted and apart) replaced: a finding that
 * crosses an edge of the window is replaced whole, its marker at that edge, so a window never shows a part of a
 * secret whose evidence lies outside it (the BEGIN line of a key above the window, the end of a token past a cut).
 */
export function applyFindings(
  text: string,
  findings: readonly SecretFinding[],
  from = 0,
  to = text.length,
): RedactedText {
  const kinds = new Map<string, number>();
  let out = '';
  let at = from;
  let count = 0;
  for (const finding of findings) {
    if (finding.end <= from) continue;
    if (finding.start >= to) break;
    out += text.slice(at, Math.max(at, finding.start)) + formatRedactionMarker(finding.kind);
    at = Math.max(at, finding.end);
    count++;
    kinds.set(finding.kind, (kinds.get(finding.kind) ?? 0) + 1);
  }
  if (count === 0) return { text: from === 0 && to === text.length ? text : text.slice(from, to), kinds, count };
  return { text: out + text.slice(at, Math.max(at, to)), kinds, count };
}

/** A text's lines, each redacted on its own (line numbers stay), and which findings touch each line. */
export interface RedactedLines {
  lines: string[];
  /** Per line, the indexes (into the findings) of the findings it shows a marker for. */
  touched: number[][];
}

/**
 * Each line of `text` (split at `\n`) redacted as a window of the whole text: a secret spanning lines (a key block)
 * puts its marker on every line it covers. Only the first `keep` characters are shown (a read cut by its budget): a
 * secret across that cut is replaced whole. One walk over lines and findings.
 */
export function redactLines(text: string, findings: readonly SecretFinding[], keep = text.length): RedactedLines {
  const lines: string[] = [];
  const touched: number[][] = [];
  let first = 0;
  let start = 0;
  for (;;) {
    const found = text.indexOf('\n', start);
    const newline = found >= keep ? -1 : found;
    const end = newline < 0 ? keep : newline;
    while (first < findings.length && findings[first]!.end <= start) first++;
    const own: number[] = [];
    for (let at = first; at < findings.length && findings[at]!.start < Math.max(end, start + 1); at++) own.push(at);
    const window = own.map((index) => findings[index]!);
    lines.push(own.length === 0 ? text.slice(start, end) : applyFindings(text, window, start, end).text);
    touched.push(own);
    if (newline < 0) break;
    start = newline + 1;
  }
  return { lines, touched };
}
