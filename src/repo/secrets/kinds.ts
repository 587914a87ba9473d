/**
 * The kind names shown in redaction markers (`[redacted: GitHub token]`) and in the `redacted` report, per
 * secretlint rule and message. A finding of a rule not named here is shown by its rule name.
 */
import { EXTRA_KINDS, EXTRA_RULE_ID } from './extraRules.js';
import { PROVIDER_KINDS, PROVIDER_RULE_ID } from './providerRules.js';

const PRESET_RULE = '@secretlint/secretlint-rule-';

/** `ruleId` (without the `@secretlint/secretlint-rule-` prefix) -> kind, or messageId -> kind for a rule. */
const PRESET_KINDS: Readonly<Record<string, string | Readonly<Record<string, string>>>> = {
  aws: { AWSAccessKeyID: 'AWS access key', AWSSecretAccessKey: 'AWS secret key', AWSAccountID: 'AWS account ID' },
  gcp: 'Google service-account key',
  privatekey: 'private key',
  npm: 'npm token',
  basicauth: 'password in URL',
  slack: { IncomingWebhook: 'Slack webhook', SLACK_INCOMING_WEBHOOK: 'Slack webhook' },
  sendgrid: 'SendGrid key',
  shopify: 'Shopify token',
  github: 'GitHub token',
  gitlab: 'GitLab token',
  grafana: 'Grafana token',
  openai: 'OpenAI API key',
  anthropic: 'Anthropic API key',
  groq: 'Groq API key',
  huggingface: 'Hugging Face token',
  linear: 'Linear API key',
  notion: 'Notion token',
  '1password': '1Password token',
  'database-connection-string': 'password in URL',
  'hashicorp-vault': 'Vault token',
  vercel: 'Vercel token',
  databricks: 'Databricks token',
  docker: 'Docker token',
  figma: 'Figma token',
};

export function kindOf(ruleId: string, messageId: string): string {
  if (ruleId === EXTRA_RULE_ID) return EXTRA_KINDS[messageId as keyof typeof EXTRA_KINDS] ?? 'secret';
  if (ruleId === PROVIDER_RULE_ID) return PROVIDER_KINDS[messageId as keyof typeof PROVIDER_KINDS] ?? 'secret';
  const name = ruleId.startsWith(PRESET_RULE) ? ruleId.slice(PRESET_RULE.length) : ruleId;
  const entry = PRESET_KINDS[name];
  if (typeof entry === 'string') return entry;
  if (entry !== undefined) return entry[messageId] ?? (name === 'slack' ? 'Slack token' : `${name} secret`);
  return `${name} secret`;
}
