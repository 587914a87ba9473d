/**
 * Our secretlint rule for the credential kinds the recommended preset misses (measured by bench/secretCoverage.ts):
 * Stripe keys, OpenAI project/service-account/admin keys, Anthropic keys of every generation, Google API keys,
 * PyPI upload tokens, JWTs, private-key blocks of any type (also encrypted, PGP, or cut off by a truncation), a
 * password in any `scheme://user:password@host` URL, and generic `password=`/`secret=`/`token=` assignments with a
 * high-entropy value. The patterns are informed by gitleaks' published rule set (config/gitleaks.toml) and
 * detect-secrets' heuristics for placeholders; each reports only the secret's own characters, so the marker that
 * replaces it keeps the rest of the line (the variable name, the URL's host) readable.
 *
 * Loaded only with the scanner (a dynamic import): nothing here runs at start-up.
 */
import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';

import { scannerRule } from './scannerRule.js';

export const EXTRA_RULE_ID = 'mcp-model-input/secretlint-rule-extra';

/** messageId -> kind label; the label is what the marker shows: `[redacted: Stripe key]`. */
export const EXTRA_KINDS = {
  STRIPE_KEY: 'Stripe key',
  OPENAI_KEY: 'OpenAI API key',
  ANTHROPIC_KEY: 'Anthropic API key',
  GOOGLE_API_KEY: 'Google API key',
  PYPI_TOKEN: 'PyPI token',
  JWT: 'JWT',
  PRIVATE_KEY: 'private key',
  URL_PASSWORD: 'password in URL',
  URL_GITHUB_TOKEN: 'GitHub token',
  ASSIGNED_SECRET: 'secret value',
} as const;

type ExtraKind = keyof typeof EXTRA_KINDS;

/**
 * A private-key block of any type: to its END line, or to the end of the text when the block was cut (a truncated
 * read keeps no END line); a NUL (between texts scanned together) ends it too. One pass: the lazy body tries the
 * END alternatives at each character and a match consumes its block.
 */
const PRIVATE_KEY =
  /-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----[^\0]*?(?:-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|\0|$)/g;

/** The private-key blocks of a whole text, as ranges (the scanner runs this before it slices a text). */
export function findPrivateKeys(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const match of text.matchAll(PRIVATE_KEY)) {
    const start = match.index ?? 0;
    if (match[0].length > 0) found.push([start, start + match[0].length]);
  }
  return found;
}

/** A token pattern: the whole match (or the named group `secret`) is reported. */
const TOKEN_PATTERNS: ReadonlyArray<[ExtraKind, RegExp]> = [
  ['STRIPE_KEY', /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}(?![A-Za-z0-9])/g],
  ['OPENAI_KEY', /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,400}(?![A-Za-z0-9_-])/g],
  ['ANTHROPIC_KEY', /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{20,400}(?![A-Za-z0-9_-])/g],
  ['GOOGLE_API_KEY', /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g],
  ['PYPI_TOKEN', /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}/g],
  ['JWT', /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g],
  ['PRIVATE_KEY', PRIVATE_KEY],
];

/**
 * `scheme://user:password@` — only the password is reported; with GitHub's `x-oauth-basic` as the password, the
 * user part is the token (`https://<token>:x-oauth-basic@github.com/…`, a form that predates prefixed tokens).
 */
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:@/'"`<>]{0,256}):(?<secret>[^\s@/'"`<>]{1,256})@/dgi;

/**
 * `name = value`, `name: value`, `"name": "value"`, `NAME=value` where the name says secret. A quoted value runs to
 * its closing quote (commas, semicolons and spaces inside it belong to it); an unquoted one to the next space,
 * quote, comma or semicolon. The value (group `quoted` or `bare`) must then look like a secret: see
 * {@link isLikelySecretValue}. Every part is bounded, so a match costs a bounded number of steps from its start.
 */
const ASSIGNMENT =
  /(?<![A-Za-z0-9])(?<name>[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_.-]?key|access[_.-]?key|private[_.-]?key|auth[_.-]?key|client[_.-]?key[_.-]?data|credential|(?<![A-Za-z])auth(?![A-Za-z]))[A-Za-z0-9_.-]{0,20})["']?[ \t]*(?<op>:=|=>|=|:)[ \t]*(?:"(?<dq>[^"\n]{1,200})"|'(?<sq>[^'\n]{1,200})'|`(?<bq>[^`\n]{1,200})`|(?<bare>[^\s"'`;,]{8,200}))/dgi;

/** Names that hold no secret even though they contain a secret word: `token_url`, `secret_name`, `public_key`… */
const HARMLESS_NAME =
  /(?:[_.-](?:url|uri|endpoint|name|id|file|path|dir|length|size|type|field|label|header|prefix|env|var|count|limit|expires?(?:_at|_in)?|ttl)|public[_.-]?key|publishable[_.-]?key|csrf[_.-]?token|tokenizer|tokens)$/i;

/** The same, written in camelCase: `tokenUrl`, `passwordField`, `secretName`. */
const HARMLESS_CAMEL =
  /[a-z0-9](?:Url|Uri|Endpoint|Name|Id|File|Path|Dir|Length|Size|Type|Field|Label|Header|Prefix|Count|Limit|Ttl)$/;

/** Shannon entropy in bits per character. */
export function entropyOf(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Words that stand in for a secret in examples and docs. */
const STAND_INS = new Set(
  'password passwd secret token changeme example placeholder redacted required optional undefined null none true false string hidden empty default notset'.split(
    ' ',
  ),
);

/**
 * Whether an assigned value looks like a real secret rather than a reference or a placeholder: not a template
 * (`${X}`, `{{ x }}`, `<token>`, `%s`, `$VAR`), not a call or lookup (`get()`, `env["X"]`), not an identifier or dotted
 * name (`process.env.TOKEN`, `PASSWORD_FIELD`, `accessToken`), not a path or URL, not a marker of ours. Then:
 * - letters and digits mixed, with entropy of at least 3 bits per character (any value of 8 or more characters);
 * - or, when `quoted` (the writer delimited it, so commas and semicolons are part of it), letters only or with
 *   punctuation: at least 6 characters, not a stand-in word (`changeme`, `password`), entropy of at least 2.5.
 * A value with whitespace (a label, prose) or an ellipsis (an elided example) is never taken.
 */
export function isLikelySecretValue(value: string, quoted = false): boolean {
  if (/^[$<{%[*]/.test(value) || /[()[\]{}]/.test(value) || value.startsWith('redacted:')) return false;
  // Words with spaces between them are a label or prose (`'Google API key'`), and `…` marks an elided example.
  if (/\s/.test(value) || value.includes('...') || value.includes('\u2026')) return false;
  if (/^(?:\/|\.\.?\/|~\/|[a-z]+:\/\/)/i.test(value)) return false;
  if (/^[A-Za-z]+(?:[_.-][A-Za-z]+)+$/.test(value) || /^[a-z]+(?:[A-Z][a-z]*)+$/.test(value)) return false;
  const mixed = /[A-Za-z]/.test(value) && /[0-9]/.test(value);
  if (mixed && value.length >= 8 && entropyOf(value) >= 3) return true;
  if (!quoted || value.length < 6) return false;
  if (STAND_INS.has(value.toLowerCase()) || /^(.)\1+$/.test(value)) return false;
  return entropyOf(value) >= 2.5;
}

function reportAll(source: SecretLintSourceCode, report: (kind: ExtraKind, range: [number, number]) => void): void {
  const text = source.content;
  for (const [kind, pattern] of TOKEN_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      if (match[0].length > 0) report(kind, [start, start + match[0].length]);
    }
  }
  for (const match of text.matchAll(URL_CREDENTIALS)) {
    const secret = match.groups?.['secret'] ?? '';
    if (secret.toLowerCase() === 'x-oauth-basic') {
      const user = match.indices?.groups?.['user'];
      if (user !== undefined && user[1] > user[0]) report('URL_GITHUB_TOKEN', user);
      continue;
    }
    const range = match.indices?.groups?.['secret'];
    if (range !== undefined && !/^(?:\$|\{\{|<|%|\*+$)/.test(secret)) report('URL_PASSWORD', range);
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    const groups = match.groups ?? {};
    const group = (['dq', 'sq', 'bq', 'bare'] as const).find((key) => groups[key] !== undefined);
    const range = group === undefined ? undefined : match.indices?.groups?.[group];
    const name = groups['name'] ?? '';
    if (range === undefined || HARMLESS_NAME.test(name) || HARMLESS_CAMEL.test(name)) continue;
    if (isLikelySecretValue(groups[group!]!, group !== 'bare')) report('ASSIGNED_SECRET', range);
  }
}

export const extraRule: SecretLintRuleCreator = scannerRule(EXTRA_RULE_ID, EXTRA_KINDS, reportAll);
