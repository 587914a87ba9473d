/**
 * Our secretlint rule for the credential kinds the recommended preset misses (measured in docs/security.md):
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

/** A token pattern: the whole match (or the named group `secret`) is reported. */
const TOKEN_PATTERNS: ReadonlyArray<[ExtraKind, RegExp]> = [
  ['STRIPE_KEY', /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}(?![A-Za-z0-9])/g],
  ['OPENAI_KEY', /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,400}(?![A-Za-z0-9_-])/g],
  ['ANTHROPIC_KEY', /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{20,400}(?![A-Za-z0-9_-])/g],
  ['GOOGLE_API_KEY', /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g],
  ['PYPI_TOKEN', /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}/g],
  ['JWT', /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g],
  // To the END line, or to the end of the text when the block was cut (a truncated read keeps no END line); a NUL
  // (between texts scanned together) ends it too.
  [
    'PRIVATE_KEY',
    /-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----[^\0]*?(?:-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|\0|$)/g,
  ],
];

/**
 * `scheme://user:password@` — only the password is reported; with GitHub's `x-oauth-basic` as the password, the
 * user part is the token (`https://<token>:x-oauth-basic@github.com/…`, a form that predates prefixed tokens).
 */
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:@/'"`<>]{0,256}):(?<secret>[^\s@/'"`<>]{1,256})@/dgi;

/**
 * `name = value`, `name: value`, `"name": "value"`, `NAME=value` where the name says secret. The value (group
 * `secret`) must then look random: see {@link isLikelySecretValue}.
 */
const ASSIGNMENT =
  /(?<![A-Za-z0-9])(?<name>[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|pwd|secret|token|api[_.-]?key|access[_.-]?key|private[_.-]?key|auth[_.-]?key|credential)[A-Za-z0-9_.-]{0,20})["']?[ \t]*(?::=|=>|=|:)[ \t]*(?<quote>["'`]?)(?<secret>[^\s"'`;,]{8,200})\k<quote>/dgi;

/** Names that hold no secret even though they contain a secret word: `token_url`, `secret_name`, `public_key`… */
const HARMLESS_NAME =
  /(?:[_.-](?:url|uri|endpoint|name|id|file|path|dir|length|size|type|field|label|header|prefix|env|var|count|limit|expires?(?:_at|_in)?|ttl)|public[_.-]?key|publishable[_.-]?key|csrf[_.-]?token|tokenizer|tokens)$/i;

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

/**
 * Whether an assigned value looks like a real secret rather than a reference or a placeholder: not a template
 * (`${X}`, `{{ x }}`, `<token>`, `%s`, `$VAR`), not a call or lookup (`get()`, `env["X"]`), not a plain
 * identifier or dotted name (`process.env.TOKEN`, `PASSWORD_FIELD`), not a path or URL, not a marker of ours;
 * then letters and digits mixed, with entropy of at least 3 bits per character.
 */
export function isLikelySecretValue(value: string): boolean {
  if (/^[$<{%[*]/.test(value) || /[()[\]{}]/.test(value)) return false;
  if (/^[A-Za-z_.-]+$/.test(value) || /^(?:\/|\.\.?\/|~\/|[a-z]+:\/\/)/i.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return entropyOf(value) >= 3;
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
    const range = match.indices?.groups?.['secret'];
    const name = match.groups?.['name'] ?? '';
    const secret = match.groups?.['secret'] ?? '';
    if (range !== undefined && !HARMLESS_NAME.test(name) && isLikelySecretValue(secret)) {
      report('ASSIGNED_SECRET', range);
    }
  }
}

const MESSAGES = Object.fromEntries(
  Object.entries(EXTRA_KINDS).map(([id, label]) => [id, { en: () => `found ${label}` }]),
);

export const extraRule: SecretLintRuleCreator = {
  messages: MESSAGES,
  meta: {
    id: EXTRA_RULE_ID,
    type: 'scanner',
    recommended: true,
    supportedContentTypes: ['text'],
  },
  create(context) {
    const t = context.createTranslator(MESSAGES);
    return {
      file(source) {
        reportAll(source, (kind, range) => context.report({ message: t(kind), range }));
      },
    };
  },
};
