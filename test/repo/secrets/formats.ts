/**
 * The credential formats corpus (issue 26): more than 50 formats, each a fake value built at run time (never a real
 * secret, and no credential-shaped string is written in this repository) and the line a repository would hold it
 * in. Each line starts with its label `fmt:<id>`, so a test can tell that the line reached a prompt while its value
 * did not. The formats are laid out in a few ordinary files (none on the secret-file name list), small enough for
 * every path to show them whole: the pick's summary prompt, explore's read_file and search.
 */
import { corpusSecrets, fake, pem } from './corpus.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}_-`;

export interface CredentialFormat {
  id: string;
  /** The value that must never reach a model. */
  value: string;
  /** The text a file holds it in (starts with the label; a key block spans lines). */
  line: string;
}

/** The label that starts a format's line. */
export const labelOf = (id: string): string => `fmt:${id}`;

const b64 = (seed: string, length: number): string => fake(seed, length, B64);

function formats(): Array<[id: string, value: string, line: (value: string) => string]> {
  const sid = `AC${fake('tw-sid2', 32, HEX)}`;
  return [
    // The corpus of issue 18, in neutral places (the rule for the format must catch it, not a name before it).
    ...corpusSecrets().map(({ id, value }): [string, string, (value: string) => string] => {
      switch (id) {
        case 'aws_secret_access_key':
          return [id, value, (v) => `aws_secret_access_key = ${v}`];
        case 'postgres_password':
          return [id, value, (v) => `url: postgres://app:${v}@db.internal:5432/app`];
        case 'redis_password':
          return [id, value, (v) => `cache: redis://:${v}@cache.internal:6379/0`];
        case 'https_password':
          return [id, value, (v) => `mirror: https://deploy:${v}@mirror.example.com/repo`];
        case 'generic_password':
          return [id, value, (v) => `password: "${v}"`];
        case 'generic_secret':
          return [id, value, (v) => `client_secret = "${v}"`];
        case 'generic_token':
          return [id, value, (v) => `"auth_token": "${v}",`];
        default:
          return [id, value, (v) => (v.includes('\n') ? `key block:\n${v}` : `value ${v} end`)];
      }
    }),
    // Issue 26's list.
    [
      'azure_storage',
      `${b64('az', 86)}==`,
      (v) => `DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=${v};EndpointSuffix=core.windows.net`,
    ],
    [
      'azure_service_bus',
      `${b64('sb', 43)}=`,
      (v) => `Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${v}`,
    ],
    ['twilio_api_key', `SK${fake('tw-sk', 32, HEX)}`, (v) => `twilio key ${v}`],
    ['twilio_account_sid', `AC${fake('tw-sid', 32, HEX)}`, (v) => `twilio account ${v}`],
    ['twilio_auth_token', fake('tw-token', 32, HEX), (v) => `client = Client("${sid}", "${v}")`],
    ['digitalocean_pat', `dop_v1_${fake('do', 64, HEX)}`, (v) => `do ${v}`],
    ['digitalocean_oauth', `doo_v1_${fake('doo', 64, HEX)}`, (v) => `do ${v}`],
    ['mailgun_key', `key-${fake('mg', 32, HEX)}`, (v) => `mailgun ${v}`],
    [
      'discord_bot',
      `MT${fake('dc1', 24, B64URL)}.${fake('dc2', 6, B64URL)}.${fake('dc3', 38, B64URL)}`,
      (v) => `bot.run("${v}")`,
    ],
    ['telegram_bot', `${fake('tg1', 10, DIGITS)}:AA${fake('tg2', 33, B64URL)}`, (v) => `telegram ${v}`],
    ['square_access', `EAAA${fake('sq', 60, B64URL)}`, (v) => `square ${v}`],
    ['square_oauth_secret', `sq0csp-${fake('sqs', 43, B64URL)}`, (v) => `square ${v}`],
    ['square_sq0atp', `sq0atp-${fake('sqa', 22, B64URL)}`, (v) => `square ${v}`],
    ['kubeconfig_client_key', `${b64('kube', 118)}==`, (v) => `    client-key-data: ${v}`],
    [
      'docker_auths',
      Buffer.from(`bot:${fake('docker', 24, ALNUM)}`).toString('base64'),
      (v) => `{"auths": {"registry.example.com": {"auth": "${v}"}}}`,
    ],
    ['netrc_inline', fake('netrc', 16, ALNUM), (v) => `machine git.example.com login deploy password ${v}`],
    [
      'db_password_comma',
      `${fake('pc1', 6, ALNUM)},${fake('pc2', 6, ALNUM)};${fake('pc3', 5, ALNUM)}`,
      (v) => `DB_PASSWORD="${v}"`,
    ],
    ['letters_only_password', fake('letters', 16, LETTERS), (v) => `password: "${v}"`],
    // More provider formats (the preset's and ours).
    ['sendgrid', `SG.${fake('sg1', 22, B64URL)}.${fake('sg2', 43, B64URL)}`, (v) => `sendgrid ${v}`],
    ['shopify', `shpat_${fake('shop', 32, HEX)}`, (v) => `shopify ${v}`],
    ['huggingface', `hf_${fake('hf', 34, LETTERS)}`, (v) => `hf ${v}`],
    ['linear', `lin_api_${fake('lin', 40, ALNUM)}`, (v) => `linear ${v}`],
    ['notion', `ntn_${fake('ntn1', 11, DIGITS)}${fake('ntn2', 35, ALNUM)}`, (v) => `notion ${v}`],
    ['groq', `gsk_${fake('groq', 52, ALNUM)}`, (v) => `groq ${v}`],
    ['grafana', `glsa_${fake('gr1', 32, ALNUM)}_${fake('gr2', 8, HEX)}`, (v) => `grafana ${v}`],
    ['databricks', `dapi${fake('dbx', 32, HEX)}`, (v) => `databricks ${v}`],
    ['figma', `figd_${fake('figma', 40, B64URL)}`, (v) => `figma ${v}`],
    ['docker_pat', `dckr_pat_${fake('dckr', 27, B64URL)}`, (v) => `docker ${v}`],
    ['github_oauth', `gho_${fake('gho', 36, ALNUM)}`, (v) => `gh ${v}`],
    ['github_app', `ghs_${fake('ghs', 36, ALNUM)}`, (v) => `gh ${v}`],
    [
      'slack_user',
      `xoxp-${fake('su1', 12, DIGITS)}-${fake('su2', 12, DIGITS)}-${fake('su3', 13, DIGITS)}-${fake('su4', 32, HEX)}`,
      (v) => `slack ${v}`,
    ],
    ['stripe_test', `sk_test_${fake('stripe-test', 24, ALNUM)}`, (v) => `stripe ${v}`],
    ['openai_service_account', `sk-svcacct-${fake('svc', 74, B64URL)}`, (v) => `openai ${v}`],
    ['anthropic_admin', `sk-ant-admin01-${fake('ant-admin', 93, B64URL)}AA`, (v) => `anthropic ${v}`],
    ['google_oauth_secret', `GOCSPX-${fake('gocspx', 28, B64URL)}`, (v) => `oauth ${v}`],
    ['bearer_header', fake('bearer', 40, ALNUM), (v) => `curl -H "Authorization: Bearer ${v}" https://api.example.com`],
    ['mysql_password', fake('mysql', 14, ALNUM), (v) => `dsn: mysql://root:${v}@db:3306/app`],
    ['mongodb_password', fake('mongo', 14, ALNUM), (v) => `uri: mongodb+srv://app:${v}@cluster0.example.net/db`],
    ['api_key_assignment', fake('apikey', 32, ALNUM), (v) => `API_KEY = '${v}'`],
    ['ec_private_key', pem('EC PRIVATE KEY', 'MHcCAQEE', 'ec'), (v) => `key block:\n${v}`],
    ['dsa_private_key', pem('DSA PRIVATE KEY', 'MIIBuwIB', 'dsa'), (v) => `key block:\n${v}`],
  ];
}

export function credentialFormats(): CredentialFormat[] {
  return formats().map(([id, value, line]) => ({ id, value, line: `${labelOf(id)} ${line(value)}` }));
}

/** What must never reach a model: each value, and for key blocks their body lines. */
export function forbiddenOf(format: CredentialFormat): string[] {
  if (!format.value.startsWith('-----BEGIN')) return [format.value];
  return format.value
    .split('\n')
    .slice(1, -1)
    .filter((line) => line.length > 20);
}

/**
 * The formats laid out in files of at most about 6 KiB (one explore read each), every file holding a key block
 * after its first line, so that a window starting at line 2 starts inside one.
 */
export function formatFiles(): Record<string, string> {
  const all = credentialFormats();
  const keys = all.filter((format) => format.value.startsWith('-----BEGIN'));
  const lines = all.filter((format) => !format.value.startsWith('-----BEGIN'));
  const files: Record<string, string> = {};
  const count = keys.length;
  for (let index = 0; index < count; index++) {
    const own = lines.filter((_, at) => at % count === index);
    files[`conf/set${index + 1}.txt`] = [keys[index]!.line, ...own.map((format) => format.line), ''].join('\n');
  }
  return files;
}
