/**
 * Our second secretlint rule: provider formats neither the preset nor extraRules.ts knew (measured by
 * bench/secretPaths.ts), and credentials that only their place tells apart:
 * - Azure storage and Service Bus connection strings (`AccountKey=`, `SharedAccessKey=`);
 * - Twilio API keys (`SK` + 32 hex), account SIDs (`AC` + 32 hex) and the auth token written after a SID;
 * - SendGrid keys with `-` or `_` in their first parts (the preset's rule misses them);
 * - Google OAuth client secrets (`GOCSPX-`), the token of an `Authorization: Bearer …` header;
 * - DigitalOcean tokens (`dop_v1_`, `doo_v1_`, `dor_v1_`), Mailgun keys (`key-…`), Discord bot tokens, Telegram bot
 *   tokens, Square access tokens and OAuth secrets (`EAAA…`, `sq0atp-`, `sq0csp-`);
 * - base64 under a key that names a credential (`client-key-data` of a kubeconfig, Docker's `auths` entries);
 * - `.netrc`-style `password X` lines, in a file of any name.
 *
 * Every pattern is anchored on a fixed prefix or a short key name and bounded in length, so a match costs a bounded
 * number of steps from where it starts: the scan stays linear in the text. Only the secret's own characters are
 * reported. Loaded only with the scanner (a dynamic import).
 */
import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';

import { scannerRule } from './scannerRule.js';

import { entropyOf } from './extraRules.js';

export const PROVIDER_RULE_ID = 'mcp-model-input/secretlint-rule-providers';

/** messageId -> kind label: what the marker shows. */
export const PROVIDER_KINDS = {
  AZURE_KEY: 'Azure storage key',
  TWILIO_KEY: 'Twilio API key',
  TWILIO_SID: 'Twilio account SID',
  TWILIO_TOKEN: 'Twilio auth token',
  DIGITALOCEAN_TOKEN: 'DigitalOcean token',
  MAILGUN_KEY: 'Mailgun key',
  DISCORD_TOKEN: 'Discord bot token',
  TELEGRAM_TOKEN: 'Telegram bot token',
  SQUARE_TOKEN: 'Square token',
  SENDGRID_KEY: 'SendGrid key',
  GOOGLE_CLIENT_SECRET: 'Google OAuth client secret',
  BEARER_TOKEN: 'bearer token',
  CREDENTIAL_DATA: 'credential data',
  NETRC_PASSWORD: 'password',
} as const;

type ProviderKind = keyof typeof PROVIDER_KINDS;

/** Patterns whose whole match, or its group `secret`, is the secret. */
const PATTERNS: ReadonlyArray<[ProviderKind, RegExp]> = [
  ['AZURE_KEY', /\b(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*(?<secret>[A-Za-z0-9+/]{20,200}={0,2})/dgi],
  ['TWILIO_KEY', /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/dg],
  [
    'TWILIO_TOKEN',
    /(?<![A-Za-z0-9])AC[0-9a-fA-F]{32}(?![A-Za-z0-9])[^\n]{0,60}?(?<![A-Za-z0-9])(?<secret>[0-9a-fA-F]{32})(?![A-Za-z0-9])/dg,
  ],
  ['TWILIO_SID', /(?<![A-Za-z0-9])AC[0-9a-fA-F]{32}(?![A-Za-z0-9])/dg],
  ['DIGITALOCEAN_TOKEN', /(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/dg],
  ['MAILGUN_KEY', /(?<![A-Za-z0-9_-])key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])/dg],
  [
    'DISCORD_TOKEN',
    /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/dg,
  ],
  ['TELEGRAM_TOKEN', /(?<![A-Za-z0-9_:-])[0-9]{5,16}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/dg],
  [
    'SQUARE_TOKEN',
    /(?<![A-Za-z0-9_-])(?:EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/dg,
  ],
  // The preset's SendGrid rule takes no `-` in the key's first two parts; keys hold them.
  ['SENDGRID_KEY', /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/dg],
  ['GOOGLE_CLIENT_SECRET', /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/dg],
  // `Authorization: Bearer <token>` (a header in a script, a curl line, a config).
  [
    'BEARER_TOKEN',
    /\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?:Bearer|Basic|Token)[ \t]+(?<secret>[A-Za-z0-9._~+/-]{16,2000}={0,2})/dgi,
  ],
  // `client-key-data: <base64>` (kubeconfig), `"auth": "<base64>"` (Docker's auths), and their like.
  [
    'CREDENTIAL_DATA',
    /(?<![A-Za-z0-9_-])["']?(?:client-key-data|client-certificate-key|auth|identitytoken|registrytoken|password-data|token-data)["']?[ \t]*[:=][ \t]*["']?(?<secret>[A-Za-z0-9+/]{12,}={0,2})/dgi,
  ],
  // `machine host login user password X` on one line, or a line of its own that starts with `password`.
  [
    'NETRC_PASSWORD',
    /(?<![^\s])(?:machine|login|default)[ \t]+[^\n]{0,200}?[ \t]password[ \t]+(?<secret>[^\s]{4,200})/dg,
  ],
  ['NETRC_PASSWORD', /^[ \t]*password[ \t]+(?<secret>[^\s]{4,200})[ \t]*$/dgm],
];

/** Values that are placeholders or references, not secrets (a template, a variable, a marker of ours). */
const PLACEHOLDER = /^(?:[$<{%[*]|\.\.\.|x{4,}$|changeme$|password$|secret$)/i;

/** Whether base64 under a credential key looks like data rather than a word (`auth: required`). */
function looksLikeData(value: string): boolean {
  return value.length >= 16 && /[0-9+/=]/.test(value) && entropyOf(value) >= 3;
}

function reportAll(source: SecretLintSourceCode, report: (kind: ProviderKind, range: [number, number]) => void): void {
  const text = source.content;
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const group = match.indices?.groups?.['secret'];
      const secret = match.groups?.['secret'];
      if (group === undefined || secret === undefined) {
        const start = match.index ?? 0;
        report(kind, [start, start + match[0].length]);
        continue;
      }
      if (PLACEHOLDER.test(secret)) continue;
      if (kind === 'CREDENTIAL_DATA' && !looksLikeData(secret)) continue;
      report(kind, group);
    }
  }
}

export const providerRule: SecretLintRuleCreator = scannerRule(PROVIDER_RULE_ID, PROVIDER_KINDS, reportAll);
