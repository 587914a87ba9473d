/**
 * The content scanner and redactor: secretlint's core with its recommended rule preset plus our rule for the kinds
 * the preset misses (extraRules.ts). Each finding is replaced by `[redacted: <kind>]`; the rest of the text stays.
 *
 * secretlint is loaded on first use with a dynamic `import()`, so listing, `--help` and start-up never pay for it.
 * Configuration, on purpose:
 * - the AWS rule's ID scan is on (bare access key IDs are found, not only labelled secret keys);
 * - the preset's comment filter is off: a repository must not be able to switch redaction off with a
 *   `secretlint-disable` comment in its own files;
 * - secretlint's profiler records nothing: it keeps every mark of every scan (about 10 KB per scan, and a scan of
 *   the entries per mark), which a long-running server cannot afford.
 */
import type { SecretLintCoreConfig } from '@secretlint/types';

import { kindOf } from './kinds.js';
import { createScanCache, type ScanCache } from './scanCache.js';

/** One finding: a half-open range of the scanned text and the kind of secret it holds. */
export interface SecretFinding {
  start: number;
  end: number;
  kind: string;
  /** The secretlint rule that found it. */
  rule: string;
}

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

type Lint = (text: string, filePath: string) => Promise<SecretFinding[]>;

const AWS_RULE = '@secretlint/secretlint-rule-aws';
const COMMENT_FILTER_RULE = '@secretlint/secretlint-rule-filter-comments';
/** Rules that report a whole URL: only its password is replaced, so the scheme and host stay readable. */
const URL_RULES = new Set([
  '@secretlint/secretlint-rule-database-connection-string',
  '@secretlint/secretlint-rule-basicauth',
]);
const URL_CREDENTIALS = /:\/\/([^\s:@/]*):([^\s@/]+)@/d;
/** GitHub's `https://<token>:x-oauth-basic@github.com` form: the user part is the secret. */
const GITHUB_OAUTH_PASSWORD = 'x-oauth-basic';

function narrowUrl(
  text: string,
  ruleId: string,
  start: number,
  end: number,
): { start: number; end: number; kind?: string } {
  if (!URL_RULES.has(ruleId)) return { start, end };
  const match = URL_CREDENTIALS.exec(text.slice(start, end));
  const token = match?.[2]?.toLowerCase() === GITHUB_OAUTH_PASSWORD;
  const range = match?.indices?.[token ? 1 : 2];
  if (range === undefined || range[1] === range[0]) return { start, end };
  return { start: start + range[0], end: start + range[1], ...(token && { kind: 'GitHub token' }) };
}

let loaded: Promise<Lint> | undefined;

/** The process's scans kept by digest (scanCache.ts). */
const scans = createScanCache<SecretFinding>();

/** The process's scan cache: how many scans it keeps (tests). */
export function keptScans(): Pick<ScanCache<SecretFinding>, 'size' | 'clear'> {
  return scans;
}

async function loadLint(): Promise<Lint> {
  const [{ lintSource }, { rules: presetRules }, { secretLintProfiler }, { extraRule, EXTRA_RULE_ID }] =
    await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
      import('./extraRules.js'),
    ]);
  // The profiler's marks are never read here; recording them would leak memory for the life of the process.
  secretLintProfiler.mark = () => undefined;
  // The preset's rules one by one: secretlint 12.0 ignores `disabled` for a rule inside a preset.
  const config: SecretLintCoreConfig = {
    rules: [
      ...presetRules
        .filter((rule) => rule.meta.id !== COMMENT_FILTER_RULE)
        .map((rule) => ({
          id: rule.meta.id,
          rule,
          ...(rule.meta.id === AWS_RULE && { options: { enableIDScanRule: true } }),
        })),
      { id: EXTRA_RULE_ID, rule: extraRule },
    ],
  };
  return async (text, filePath) => {
    const dot = filePath.lastIndexOf('.');
    const ext = dot > filePath.lastIndexOf('/') ? filePath.slice(dot) : '';
    const result = await lintSource({
      source: { content: text, filePath: filePath || 'text', ext, contentType: 'text' },
      options: { config, noPhysicFilePath: true, maskSecrets: true },
    });
    return result.messages.map((message) => {
      const narrowed = narrowUrl(text, message.ruleId, message.range[0], message.range[1]);
      return {
        start: narrowed.start,
        end: narrowed.end,
        kind: narrowed.kind ?? kindOf(message.ruleId, message.messageId),
        rule: message.ruleId,
      };
    });
  };
}

/** Characters that continue a token: a range ending inside one is widened to its end, never leaving a tail. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_.~-]/;

/**
 * Sorted, non-overlapping ranges. A rule may report a range that stops inside the secret (the preset's AWS secret
 * key rule reports the key's length from the start of its label): each range is widened to the end of the token it
 * ends in. Overlapping or touching findings become one, named by the widest.
 */
export function mergeFindings(text: string, findings: readonly SecretFinding[]): SecretFinding[] {
  const widened = findings
    .map((finding) => {
      const start = Math.max(0, finding.start);
      let end = Math.min(finding.end, text.length);
      while (
        end > start &&
        end < text.length &&
        TOKEN_CHAR.test(text[end - 1] ?? '') &&
        TOKEN_CHAR.test(text[end] ?? '')
      ) {
        end++;
      }
      return { ...finding, start, end };
    })
    .filter((finding) => finding.end > finding.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const finding of widened) {
    const last = merged[merged.length - 1];
    if (last !== undefined && finding.start <= last.end) {
      if (finding.end > last.end) {
        if (finding.end - finding.start > last.end - last.start) last.kind = finding.kind;
        last.end = finding.end;
      }
    } else {
      merged.push({ ...finding });
    }
  }
  return merged;
}

/** Finds the secrets in `text`; `filePath` (root-relative) lets file-type rules apply (service-account JSON). */
export async function scanText(text: string, filePath = ''): Promise<SecretFinding[]> {
  if (text.length === 0) return [];
  // The same text under the same name was scanned already: the same findings (scanCache.ts).
  const kept = scans.get(text, filePath);
  if (kept !== undefined) return kept;
  const lint = await (loaded ??= loadLint().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  }));
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
  let offset = 0;
  return texts.map((text) => {
    const start = offset;
    const end = start + text.length;
    offset = end + JOIN.length;
    const own = findings
      .filter((finding) => finding.start < end && finding.end > start)
      .map((finding) => ({
        ...finding,
        start: Math.max(finding.start, start) - start,
        end: Math.min(finding.end, end) - start,
      }));
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
