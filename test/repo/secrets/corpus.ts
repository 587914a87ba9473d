/**
 * The credential corpus: one fake value per supported kind, placed inside ordinary files (string literals, a README
 * code block, YAML/TOML/JSON config, URLs with passwords, a private-key block inside a source file), plus secret
 * files by name and the false-positive cases (git SHAs, UUIDs, lock-file hashes, base64 test vectors) that must stay.
 *
 * Every value is built at run time from a seeded generator: no credential-shaped string is written in this
 * repository (so secret scanners and push protection have nothing to flag), and a test can look for each value in
 * whatever reached a model.
 */
import { createHash } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}_-`;

/** Deterministic characters from `alphabet` (sha256 in counter mode). */
export function fake(seed: string, length: number, alphabet: string): string {
  let out = '';
  for (let block = 0; out.length < length; block++) {
    for (const byte of createHash('sha256').update(`${seed}:${block}`).digest()) {
      if (out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

function base64Lines(seed: string, head: string, lines: number): string {
  const body = head + fake(seed, 64 * lines - head.length, B64);
  return body.match(/.{1,64}/g)!.join('\n');
}

function b64url(json: object): string {
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

export const pem = (label: string, head: string, seed: string): string =>
  `-----BEGIN ${label}-----\n${base64Lines(seed, head, 12)}\n-----END ${label}-----`;

/** One value per kind: `kind` is the marker label the redactor must show. */
export interface CorpusSecret {
  id: string;
  kind: string;
  value: string;
}

export function corpusSecrets(): CorpusSecret[] {
  const jwt = [
    b64url({ alg: 'HS256', typ: 'JWT' }),
    b64url({ sub: fake('jwt-sub', 12, ALNUM), name: 'Jane Doe', iat: 1_700_000_000 }),
    fake('jwt-sig', 43, B64URL),
  ].join('.');
  return [
    { id: 'aws_access_key_id', kind: 'AWS access key', value: `AKIA${fake('aws-id', 16, UPPER32)}` },
    { id: 'aws_secret_access_key', kind: 'AWS secret key', value: fake('aws-secret', 40, B64) },
    { id: 'github_classic', kind: 'GitHub token', value: `ghp_${fake('ghp', 36, ALNUM)}` },
    { id: 'github_fine_grained', kind: 'GitHub token', value: `github_pat_${fake('ghpat', 82, ALNUM)}` },
    { id: 'gitlab_pat', kind: 'GitLab token', value: `glpat-${fake('glpat', 20, ALNUM)}` },
    {
      id: 'slack_bot',
      kind: 'Slack token',
      value: `xoxb-${fake('sl1', 12, '0123456789')}-${fake('sl2', 13, '0123456789')}-${fake('sl3', 24, ALNUM)}`,
    },
    {
      id: 'slack_webhook',
      kind: 'Slack webhook',
      value: `https://hooks.slack.com/services/T${fake('wh1', 8, UPPER32)}/B${fake('wh2', 10, UPPER32)}/${fake('wh3', 24, ALNUM)}`,
    },
    { id: 'stripe_live', kind: 'Stripe key', value: `sk_live_${fake('stripe', 24, ALNUM)}` },
    { id: 'stripe_restricted', kind: 'Stripe key', value: `rk_live_${fake('stripe-rk', 24, ALNUM)}` },
    { id: 'openai_project', kind: 'OpenAI API key', value: `sk-proj-${fake('openai', 156, B64URL)}` },
    {
      id: 'openai_legacy',
      kind: 'OpenAI API key',
      value: `sk-${fake('oa1', 20, ALNUM)}T3BlbkFJ${fake('oa2', 20, ALNUM)}`,
    },
    { id: 'anthropic', kind: 'Anthropic API key', value: `sk-ant-api03-${fake('ant', 93, B64URL)}AA` },
    { id: 'google_api_key', kind: 'Google API key', value: `AIza${fake('gapi', 35, B64URL)}` },
    { id: 'npm_token', kind: 'npm token', value: `npm_${fake('npm', 36, ALNUM)}` },
    { id: 'pypi_token', kind: 'PyPI token', value: `pypi-AgEIcHlwaS5vcmc${fake('pypi', 70, B64URL)}` },
    { id: 'pem_rsa', kind: 'private key', value: pem('RSA PRIVATE KEY', 'MIIEow', 'rsa') },
    { id: 'pem_pkcs8', kind: 'private key', value: pem('PRIVATE KEY', 'MIIEvQ', 'pkcs8') },
    { id: 'pem_encrypted', kind: 'private key', value: pem('ENCRYPTED PRIVATE KEY', 'MIIFHz', 'enc') },
    { id: 'openssh', kind: 'private key', value: pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAA', 'ssh') },
    { id: 'pgp', kind: 'private key', value: pem('PGP PRIVATE KEY BLOCK', 'lQOYBF', 'pgp') },
    { id: 'postgres_password', kind: 'password in URL', value: fake('pg', 18, ALNUM) },
    { id: 'redis_password', kind: 'password in URL', value: fake('redis', 20, ALNUM) },
    { id: 'https_password', kind: 'password in URL', value: fake('https', 16, ALNUM) },
    { id: 'jwt', kind: 'JWT', value: jwt },
    { id: 'generic_password', kind: 'secret value', value: `${fake('pw', 14, ALNUM)}9#` },
    { id: 'generic_secret', kind: 'secret value', value: fake('secret', 32, ALNUM) + '7' },
    { id: 'generic_token', kind: 'secret value', value: fake('token', 40, B64URL) + '3' },
  ];
}

/** The secrets' values by id. */
export function secretValues(): Record<string, string> {
  return Object.fromEntries(corpusSecrets().map((secret) => [secret.id, secret.value]));
}

/** What must never reach a model: each value, and for the PEM blocks their body lines. */
export function forbiddenStrings(): string[] {
  const out: string[] = [];
  for (const { value } of corpusSecrets()) {
    if (value.startsWith('-----BEGIN'))
      out.push(
        ...value
          .split('\n')
          .slice(1, -1)
          .filter((line) => line.length > 20),
      );
    else out.push(value);
  }
  return out;
}

/** Ordinary files holding the secrets, in the places real repositories put them. */
export function ordinaryFiles(): Record<string, string> {
  const v = secretValues();
  const jsonPem = v['pem_pkcs8']!.replace(/\n/g, '\\n');
  return {
    'README.md': [
      '# Demo service',
      '',
      'A small service that talks to several APIs. Configure it like this:',
      '',
      '```sh',
      `export OPENAI_API_KEY=${v['openai_project']}`,
      `export ANTHROPIC_API_KEY=${v['anthropic']}`,
      `echo "//registry.npmjs.org/:_authToken=${v['npm_token']}" > ~/.npmrc`,
      '```',
      '',
      `Call the API with \`curl -H "Authorization: Bearer ${v['jwt']}" https://api.example.com\`.`,
      '',
    ].join('\n'),
    // A secret in a manifest field reaches the repository facts (project description) as well as the file.
    'package.json': JSON.stringify(
      {
        name: 'demo-service',
        version: '1.0.0',
        description: `Demo service; CI publishes with ${v['github_classic']}`,
        main: 'src/index.ts',
      },
      null,
      2,
    ),
    'src/index.ts': [
      "import { connect } from './db.js';",
      '',
      `const githubToken = '${v['github_classic']}';`,
      `const fineGrained = "${v['github_fine_grained']}";`,
      `const stripe = new Stripe('${v['stripe_live']}');`,
      `const restricted = \`${v['stripe_restricted']}\`;`,
      `const maps = { key: "${v['google_api_key']}" };`,
      `const legacyOpenAI = '${v['openai_legacy']}';`,
      `export const SLACK = '${v['slack_bot']}';`,
      `export const HOOK = '${v['slack_webhook']}';`,
      '',
      'export function main(): void {',
      '  connect();',
      '}',
      '',
    ].join('\n'),
    'src/signing.ts': [
      '// A key left in a source file.',
      `export const SIGNING_KEY = \`${v['pem_rsa']}\`;`,
      '',
      `export const DEPLOY_KEY = \`${v['openssh']}\`;`,
      '',
      'export function sign(data: string): string {',
      '  return data;',
      '}',
      '',
    ].join('\n'),
    'src/db.ts': [
      `const url = 'postgres://app:${v['postgres_password']}@db.internal:5432/app';`,
      `const cache = 'redis://:${v['redis_password']}@cache.internal:6379/0';`,
      'export function connect(): string {',
      '  return url + cache;',
      '}',
      '',
    ].join('\n'),
    'config/app.yaml': [
      'server:',
      '  port: 8080',
      `  mirror: https://deploy:${v['https_password']}@mirror.example.com/repo`,
      'aws:',
      `  access_key_id: ${v['aws_access_key_id']}`,
      `  aws_secret_access_key: ${v['aws_secret_access_key']}`,
      'database:',
      `  password: "${v['generic_password']}"`,
      '',
    ].join('\n'),
    'config/settings.toml': [
      '[service]',
      'name = "demo"',
      `client_secret = "${v['generic_secret']}"`,
      `gitlab = "${v['gitlab_pat']}"`,
      '',
      '[publish]',
      `pypi = "${v['pypi_token']}"`,
      '',
    ].join('\n'),
    'config/keys.json': JSON.stringify(
      {
        service: 'demo',
        auth_token: v['generic_token'],
        encrypted: v['pem_encrypted'],
        signing: {
          type: 'service_account',
          private_key_id: fake('pkid', 40, '0123456789abcdef'),
          private_key: jsonPem,
        },
      },
      null,
      2,
    ),
    'docs/pgp.md': ['# Release signing', '', 'The old release key:', '', '```', v['pgp'], '```', ''].join('\n'),
  };
}

/** Secret-bearing files by name (each also holds a secret, so a leak would show). */
export function secretFiles(): Record<string, string> {
  const v = secretValues();
  return {
    '.env': `OPENAI_API_KEY=${v['openai_project']}\nDATABASE_URL=postgres://app:${v['postgres_password']}@db/app\n`,
    '.env.production': `STRIPE_KEY=${v['stripe_live']}\n`,
    id_rsa: `${v['pem_rsa']}\n`,
    'deploy/server.pem': `${v['pem_pkcs8']}\n`,
    'deploy/tls.key': `${v['pem_rsa']}\n`,
    '.aws/credentials': `[default]\naws_access_key_id = ${v['aws_access_key_id']}\naws_secret_access_key = ${v['aws_secret_access_key']}\n`,
    '.npmrc': `//registry.npmjs.org/:_authToken=${v['npm_token']}\n`,
    '.pypirc': `[pypi]\nusername = __token__\npassword = ${v['pypi_token']}\n`,
    '.netrc': `machine github.com login bot password ${v['github_classic']}\n`,
    '.git-credentials': `https://bot:${v['github_classic']}@github.com\n`,
    '.docker/config.json': JSON.stringify({ auths: { 'ghcr.io': { auth: v['github_classic'] } } }),
    '.ssh/config': 'Host prod\n  IdentityFile ~/.ssh/id_ed25519\n',
    kubeconfig: `users:\n- name: admin\n  user:\n    token: ${v['jwt']}\n`,
    'infra/terraform.tfstate': JSON.stringify({ outputs: { db_password: { value: v['generic_password'] } } }),
    'infra/prod.tfvars': `api_token = "${v['generic_token']}"\n`,
  };
}

/** Files that are not secrets even though they look random: they must come back unchanged. */
export function falsePositiveFiles(): Record<string, string> {
  const sha = (seed: string): string => createHash('sha1').update(seed).digest('hex');
  const integrity = (seed: string): string => `sha512-${createHash('sha512').update(seed).digest('base64')}`;
  return {
    'CHANGELOG.md': [
      '# Changelog',
      '',
      `- Fixed the parser (commit ${sha('a')}, reverted in ${sha('b').slice(0, 12)}).`,
      `- Request ids are UUIDs such as 123e4567-e89b-12d3-a456-426614174000 and ${'f47ac10b-58cc-4372-a567-0e02b2c3d479'}.`,
      '',
    ].join('\n'),
    'package-lock.json': JSON.stringify(
      {
        name: 'demo',
        lockfileVersion: 3,
        packages: {
          'node_modules/left-pad': {
            version: '1.3.0',
            resolved: 'https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz',
            integrity: integrity('left-pad'),
          },
          'node_modules/from-git': { version: '2.0.0', resolved: `git+ssh://git@github.com/a/b.git#${sha('c')}` },
        },
      },
      null,
      2,
    ),
    'Cargo.lock': `[[package]]\nname = "serde"\nversion = "1.0.0"\nchecksum = "${createHash('sha256').update('serde').digest('hex')}"\n`,
    'go.sum': `golang.org/x/text v0.3.0 h1:${createHash('sha256').update('text').digest('base64')}\n`,
    'test/base64.test.ts': [
      "import { expect, it } from 'vitest';",
      '',
      "it('encodes', () => {",
      "  expect(encode('foobar')).toBe('Zm9vYmFy');",
      `  expect(encode('${'x'.repeat(40)}')).toBe('${Buffer.from('x'.repeat(40)).toString('base64')}');`,
      `  expect(digest('abc')).toBe('${createHash('sha256').update('abc').digest('base64')}');`,
      '});',
      '',
    ].join('\n'),
    'src/config.ts': [
      'export const config = {',
      '  password: process.env.DB_PASSWORD,',
      '  token: getToken(),',
      "  secret: '${SECRET}',",
      "  apiKey: '<your-api-key>',",
      "  tokenUrl: 'https://auth.example.com/token',",
      "  passwordField: 'password_hash',",
      '};',
      '',
    ].join('\n'),
  };
}
