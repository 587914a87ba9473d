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

let loaded: Promise<RuleSet> | undefined;

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
  const rules = await (loaded ??= import('./ruleSet.js')
    .then(({ loadRules }) => loadRules())
    .catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
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
  return applyFindings(text, await scanText(withoutNul(text), filePath));
}

/** The text with each NUL (which ends a private-key match: see extraRules.ts) as U+FFFD, at the same offsets. */
function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}

/** Between texts scanned together: a line break stops line-bound patterns, the NUL stops the rest. */
const JOIN = '\n\0\n';

/**
 * Several texts redacted in one scan (a scan has a fixed cost of its own, larger than that of a few KiB of text):
 * the texts are joined, and each finding is clipped to the text it lies in.
 */
export async function redactTexts(texts: readonly string[]): Promise<RedactedText[]> {
  if (texts.length <= 1) return Promise.all(texts.map((text) => redactText(text)));
  // A NUL inside a text would end a private-key match early: the scanned copy has none but the separators (same
  // length, so the offsets still apply to the texts as they are).
  const joined = texts.map(withoutNul).join(JOIN);
  const findings = await scanText(joined);
  // Findings are sorted and apart: one walk hands each text the ones that lie in it.
  let offset = 0;
  let first = 0;
  return texts.map((text) => {
    const start = offset;
    const end = start + text.length;
    offset = end + JOIN.length;
    while (first < findings.length && findings[first]!.end <= start) first++;
    const own: SecretFinding[] = [];
    for (let at = first; at < findings.length && findings[at]!.start < end; at++) {
      const finding = findings[at]!;
      own.push({ ...finding, start: Math.max(finding.start, start) - start, end: Math.min(finding.end, end) - start });
    }
    return applyFindings(text, own);
  });
}

function applyFindings(text: string, findings: readonly SecretFinding[]): RedactedText {
  const kinds = new Map<string, number>();
  if (findings.length === 0) return { text, kinds, count: 0 };
  let out = '';
  let at = 0;
  for (const finding of findings) {
    out += text.slice(at, finding.start) + formatRedactionMarker(finding.kind);
    at = finding.end;
    kinds.set(finding.kind, (kinds.get(finding.kind) ?? 0) + 1);
  }
  return { text: out + text.slice(at), kinds, count: findings.length };
}
