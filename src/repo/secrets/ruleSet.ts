/**
 * The rules the scanner runs: secretlint's recommended preset (but its comment filter) and our rules
 * (extraRules.ts, providerRules.ts), each driven directly through secretlint's rule API — `create(context,
 * options).file(source)` — with a context whose `report` only collects the range.
 *
 * secretlint's core is not in the path on purpose: it handles each report with work that grows with the reports
 * before it (a location computed from the text's start, a duplicate filter over all messages), so a text with
 * thousands of findings cost tens of seconds. Here a report costs the same whatever came before. Without the core:
 * no profiler marks are recorded (they would leak for the life of the process), and no `secretlint-disable` comment
 * of a repository can switch a rule off.
 *
 * Loaded on first use (a dynamic import): nothing here runs at start-up.
 */
import type { SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';

import { kindOf } from './kinds.js';
import type { SecretFinding } from './merge.js';

/** What the scanner runs; both return findings unmerged. */
export interface RuleSet {
  /** The rules over `text`, a file's content or a slice of it. */
  slice(text: string, filePath: string): SecretFinding[];
  /** What must be found on the whole text: private-key blocks, which span lines (a slice could cut one). */
  whole(text: string): SecretFinding[];
}

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

function narrowUrl(text: string, finding: SecretFinding): SecretFinding {
  if (!URL_RULES.has(finding.rule)) return finding;
  // A URL is short: the slice looked at is bounded by the finding itself.
  const match = URL_CREDENTIALS.exec(text.slice(finding.start, Math.min(finding.end, finding.start + 2048)));
  const token = match?.[2]?.toLowerCase() === GITHUB_OAUTH_PASSWORD;
  const range = match?.indices?.[token ? 1 : 2];
  if (range === undefined || range[1] === range[0]) return finding;
  return {
    ...finding,
    start: finding.start + range[0],
    end: finding.start + range[1],
    ...(token && { kind: 'GitHub token' }),
  };
}

interface Loaded {
  id: string;
  rule: SecretLintRuleCreator;
  options: Record<string, unknown>;
}

/** The translator secretlint gives a rule: here it only carries the message id through. */
const translator =
  () =>
  (messageId: string, data?: unknown): { message: string; messageId: string; data?: unknown } => ({
    message: messageId,
    messageId,
    data,
  });

function runOne(loaded: Loaded, source: SecretLintSourceCode, out: SecretFinding[]): void {
  const context = {
    sharedOptions: {},
    createTranslator: translator,
    report(descriptor: { message: { messageId: string }; range: readonly [number, number] }) {
      const finding = {
        start: descriptor.range[0],
        end: descriptor.range[1],
        kind: kindOf(loaded.id, descriptor.message.messageId),
        rule: loaded.id,
      };
      out.push(narrowUrl(source.content, finding));
    },
    ignore() {
      // Only the comment filter ignores, and it is not run.
    },
  };
  const handlers = loaded.rule.create(context as never, loaded.options as never) as {
    file?: (source: SecretLintSourceCode) => unknown;
  };
  handlers.file?.(source);
}

export async function loadRules(): Promise<RuleSet> {
  const [{ rules: presetRules }, { extraRule, EXTRA_RULE_ID, findPrivateKeys }, { providerRule, PROVIDER_RULE_ID }] =
    await Promise.all([
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('./extraRules.js'),
      import('./providerRules.js'),
    ]);
  const rules: Loaded[] = [
    ...presetRules
      .filter((rule) => rule.meta.id !== COMMENT_FILTER_RULE)
      .map((rule) => ({
        id: rule.meta.id,
        rule,
        options: rule.meta.id === AWS_RULE ? { enableIDScanRule: true } : {},
      })),
    { id: EXTRA_RULE_ID, rule: extraRule, options: {} },
    { id: PROVIDER_RULE_ID, rule: providerRule, options: {} },
  ];
  return {
    slice(text, filePath) {
      const dot = filePath.lastIndexOf('.');
      const ext = dot > filePath.lastIndexOf('/') ? filePath.slice(dot) : '';
      const source = { content: text, filePath: filePath || 'text', ext, contentType: 'text' } as SecretLintSourceCode;
      const out: SecretFinding[] = [];
      for (const loaded of rules) runOne(loaded, source, out);
      return out;
    },
    whole: (text) =>
      findPrivateKeys(text).map(([start, end]) => ({ start, end, kind: 'private key', rule: EXTRA_RULE_ID })),
  };
}
