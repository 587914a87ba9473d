/**
 * Secret-bearing files by name: never listed as candidates, never shown in a prompt, never read.
 *
 * The default list (documented with its sources in docs/security.md) is what established secret scanners and
 * repository packers treat as credential files by name: dotenv files, private keys and keystores, SSH and GPG
 * material, package-manager and VCS credential files, cloud credential files, kubeconfig, Terraform state and
 * variable files, shell and database client histories. It is matched by two precompiled regular expressions (one
 * over the file name, one over the path), so checking each of 100,000 listed paths costs one regex test.
 *
 * A user adds names with `.summarizeignore` (they are then `ignored`); opting a file of this list back in takes an
 * explicit allow pattern (`allowSecretFiles`, gitignore syntax; `--allow-secret-file` on the command line). Files
 * let in that way are still read through the content redactor.
 */
import ignore from 'ignore';

import { ModelInputError } from '../../errors.js';

/** One documented entry of the default deny list. */
export interface SecretFileRule {
  /** The names it covers, as globs (for the docs and `--help`). */
  names: string;
  /** What such files hold. */
  holds: string;
}

/** The default deny list, as documented (the regexes below implement exactly these entries). */
export const SECRET_FILE_RULES: readonly SecretFileRule[] = [
  { names: '.env, .env.* (not .env.example/.sample/.template), *.env, .envrc', holds: 'dotenv variables' },
  { names: '*.pem, *.key, *.p8, *.ppk, *.jks, *.keystore, *.p12, *.pfx', holds: 'private keys and keystores' },
  {
    names:
      'id_rsa, id_dsa, id_ecdsa, id_ed25519 and variants (id_rsa_old, id_ed25519_sk…; not *.pub), *_rsa, *_dsa, *_ecdsa, *_ed25519',
    holds: 'SSH private keys',
  },
  { names: '.ssh/**, .gnupg/**, secring.*, *.kdbx, *.keychain', holds: 'SSH and GPG material, password databases' },
  {
    names:
      '.npmrc, .pypirc, .netrc, _netrc, .git-credentials, .pgpass, .s3cfg, .htpasswd, .dockercfg, .docker/config.json, .terraformrc, terraform.rc',
    holds: 'package-manager, VCS and tool credentials',
  },
  {
    names:
      'credentials (e.g. .aws/credentials), client_secret*.json, application_default_credentials.json, service-account*.json',
    holds: 'cloud credentials',
  },
  { names: 'kubeconfig, *.kubeconfig, .kube/config', holds: 'Kubernetes credentials' },
  { names: '*.tfstate, *.tfstate.*, *.tfvars, *.tfvars.json', holds: 'Terraform state and variables' },
  {
    names:
      '.bash_history, .zsh_history, .sh_history, .history, .mysql_history, .psql_history, .irb_history, .python_history, .node_repl_history',
    holds: 'command histories',
  },
];

/** File names (the last path segment), case-insensitive. */
const SECRET_NAME = new RegExp(
  '^(?:' +
    [
      String.raw`\.env(?:\.(?!(?:example|sample|template)$)[^/]+)?`,
      String.raw`[^/]+\.env`,
      String.raw`\.envrc`,
      String.raw`[^/]+\.(?:pem|key|p8|ppk|jks|keystore|p12|pfx|kdbx|keychain|kubeconfig|tfstate|tfvars)`,
      String.raw`[^/]+\.tfstate\.[^/]+`,
      String.raw`[^/]+\.tfvars\.json`,
      String.raw`id_(?:rsa|dsa|ecdsa|ed25519)(?:[._-](?!pub$)[^/]*)?`,
      String.raw`[^/]+_(?:rsa|dsa|ecdsa|ed25519)`,
      String.raw`secring\.[^/]+`,
      String.raw`\.npmrc|\.pypirc|\.netrc|_netrc|\.git-credentials|\.pgpass|\.s3cfg|\.htpasswd|\.dockercfg`,
      String.raw`\.terraformrc|terraform\.rc`,
      String.raw`credentials|kubeconfig`,
      String.raw`client_secret[^/]*\.json|application_default_credentials\.json|service[-_]account[^/]*\.json`,
      String.raw`\.(?:bash_|zsh_|sh_|mysql_|psql_|irb_|python_|node_repl_)?history`,
    ].join('|') +
    ')$',
  'i',
);

/** Whole paths: files inside credential directories, and fixed locations. */
const SECRET_PATH = /(?:^|\/)(?:\.ssh|\.gnupg)\/|(?:^|\/)\.docker\/config\.json$|(?:^|\/)\.kube\/config$/i;

/** Whether a root-relative POSIX path names a secret-bearing file by the default list. */
export function isDefaultSecretFile(relative: string): boolean {
  const slash = relative.lastIndexOf('/');
  return SECRET_NAME.test(slash < 0 ? relative : relative.slice(slash + 1)) || SECRET_PATH.test(relative);
}

/** Decides for a root-relative POSIX path whether it is withheld as a secret-bearing file. */
export interface SecretFileFilter {
  isSecret(relative: string): boolean;
}

/**
 * The default deny list minus what `allow` lets back in (gitignore syntax, relative to the root: `fixtures/*.pem`,
 * `.env.test`). Throws `config_invalid` for a pattern the gitignore syntax cannot hold.
 */
export function createSecretFileFilter(allow: readonly string[] = []): SecretFileFilter {
  if (allow.length === 0) return { isSecret: isDefaultSecretFile };
  const allowed = ignore({ allowRelativePaths: true });
  for (const pattern of allow) {
    if (typeof pattern !== 'string' || pattern.trim() === '' || pattern.includes('\0')) {
      throw new ModelInputError('config_invalid', 'allowSecretFiles entries must be non-empty gitignore patterns');
    }
    allowed.add(pattern);
  }
  return { isSecret: (relative) => isDefaultSecretFile(relative) && !allowed.ignores(relative) };
}
