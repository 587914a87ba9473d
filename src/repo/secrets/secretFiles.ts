/**
 * Secret-bearing files by name: never listed as candidates, never shown in a prompt, never read.
 *
 * The default list (summarized in docs/security.md) is what established secret scanners and repository packers
 * treat as credential files by name: dotenv files, private keys and keystores, SSH and GPG material, package-manager
 * and VCS credential files, cloud credential files, kubeconfig, Terraform state and variable files, shell and
 * database client histories. Sources, read from their code: gitrob's signatures (core/signatures.go: most names;
 * not its broad ones — shell rc files, logs, any path with "password" — left to the content scan), repomix's
 * default ignore (`.env`), gitleaks' `pkcs12-file` rule (`*.p12`, `*.pfx`), and the lock files gitleaks and
 * detect-secrets skip (not secret-bearing: they stay, and the content scan leaves their hashes alone). It is matched with set look-ups of the name and the
 * extension and a regex only for the rarer shapes, so checking each of 100,000 listed paths stays cheap.
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

/** Exact file names (lower case). */
const SECRET_NAMES = new Set([
  '.env',
  '.envrc',
  '.npmrc',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.s3cfg',
  '.htpasswd',
  '.dockercfg',
  '.terraformrc',
  'terraform.rc',
  'credentials',
  'kubeconfig',
  'application_default_credentials.json',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
]);

/** Extensions (lower case, without the dot) of files that are credentials whatever their name. */
const SECRET_EXTENSIONS = new Set(
  'env pem key p8 ppk jks keystore p12 pfx kdbx keychain kubeconfig tfstate tfvars'.split(' '),
);

const DOTENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);
const SSH_KEY_TYPE = /(?:^|_)(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/;
const HISTORY = /^\.(?:bash_|zsh_|sh_|mysql_|psql_|irb_|python_|node_repl_)?history$/;

/** The last path segment, lower case: one check of a few string operations per listed path. */
function isSecretName(name: string): boolean {
  if (SECRET_NAMES.has(name)) return true;
  const dot = name.lastIndexOf('.');
  if (dot > 0 && SECRET_EXTENSIONS.has(name.slice(dot + 1))) return true;
  if (name.startsWith('.env.')) return !DOTENV_TEMPLATES.has(name);
  if (name.startsWith('id_')) {
    // id_rsa and its variants (id_rsa_old, id_ed25519_sk, id_rsa.bak), but not the public half.
    return /^id_(?:rsa|dsa|ecdsa|ed25519)[._-]/.test(name) && !name.endsWith('.pub');
  }
  if (dot < 0 && SSH_KEY_TYPE.test(name)) return name.includes('_');
  if (name.startsWith('secring.') || name.includes('.tfstate.') || name.endsWith('.tfvars.json')) return true;
  if (name.endsWith('.json') && (name.startsWith('client_secret') || /^service[-_]account/.test(name))) return true;
  return name.endsWith('history') && HISTORY.test(name);
}

/** Whole paths: files inside credential directories, and fixed locations. */
const SECRET_PATH = /(?:^|\/)(?:\.ssh|\.gnupg)\/|(?:^|\/)\.docker\/config\.json$|(?:^|\/)\.kube\/config$/i;

/** Whether a root-relative POSIX path names a secret-bearing file by the default list. */
export function isDefaultSecretFile(relative: string): boolean {
  const slash = relative.lastIndexOf('/');
  if (isSecretName((slash < 0 ? relative : relative.slice(slash + 1)).toLowerCase())) return true;
  // Only paths with a dot-directory can be in a credential directory.
  return slash > 0 && (relative.startsWith('.') || relative.includes('/.')) && SECRET_PATH.test(relative);
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
