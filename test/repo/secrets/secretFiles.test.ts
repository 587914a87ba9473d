/**
 * Secret-bearing files by name: never listed (by git or the walker), never a candidate, never resolved from a
 * model's answer, never read — also through a symlink, under `--path`, or by a direct `read` — and reported as
 * `secret_file`. `allowSecretFiles` lets a named file back in.
 */
import { execFileSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { openRepository } from '../../../src/repo/index.js';
import { isDefaultSecretFile } from '../../../src/repo/secrets/index.js';
import { TempDirs, writeTree } from '../fixture.js';
import { ordinaryFiles, secretFiles } from './corpus.js';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const BUDGET = { perFileBytes: 100_000, totalBytes: 1_000_000 };

async function corpusRepo(git: boolean): Promise<string> {
  const root = await dirs.make(git ? 'secrets-git-' : 'secrets-walk-');
  await writeTree(root, { ...ordinaryFiles(), ...secretFiles(), '.env.example': 'OPENAI_API_KEY=\n' });
  await symlink('.env', path.join(root, 'notes.txt'));
  await symlink('../id_rsa', path.join(root, 'docs', 'key.txt'));
  if (git) {
    const run = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
    run('init', '-q');
    run('add', '-A');
    run('commit', '-qm', 'all of it, secrets included');
  }
  return root;
}

describe('the default deny list', () => {
  it.each([
    '.env',
    '.env.local',
    'app/.env.production',
    'prod.env',
    '.envrc',
    'deploy/server.pem',
    'tls.key',
    'AuthKey_ABC123.p8',
    'release.keystore',
    'certs/client.p12',
    'certs/client.pfx',
    'android/upload.jks',
    'id_rsa',
    'id_dsa',
    'id_ecdsa',
    'id_ed25519',
    'id_rsa_old',
    'home/.ssh/id_ecdsa.bak',
    'deploy_rsa',
    '.ssh/config',
    '.gnupg/pubring.kbx',
    '.npmrc',
    '.pypirc',
    '.netrc',
    '.git-credentials',
    '.docker/config.json',
    '.aws/credentials',
    'credentials',
    'client_secret_1234.apps.googleusercontent.com.json',
    'service-account.json',
    'gcp/service_account_prod.json',
    'kubeconfig',
    'ops/prod.kubeconfig',
    '.kube/config',
    'infra/terraform.tfstate',
    'infra/terraform.tfstate.backup',
    'infra/prod.tfvars',
    'infra/prod.tfvars.json',
    '.bash_history',
  ])('denies %s', (name) => expect(isDefaultSecretFile(name)).toBe(true));

  it.each([
    '.env.example',
    '.env.sample',
    '.env.template',
    'id_rsa.pub',
    'src/env.ts',
    'src/environment.ts',
    'docs/credentials.md',
    'src/keys.ts',
    'src/token.ts',
    'keyboard.md',
    'package.json',
    'config/ssh.md',
    'terraform/main.tf',
    'docker/config.json',
  ])('lets %s through', (name) => expect(isDefaultSecretFile(name)).toBe(false));
});

describe.each([true, false])('a repository with secret files (git: %s)', (git) => {
  it('lists none of them, counts them as secret_file, and keeps the rest', async () => {
    const repo = await openRepository(await corpusRepo(git), { listing: git ? 'auto' : 'walker' });
    const listing = await repo.list();
    expect(listing.source.kind).toBe(git ? 'git' : 'walker');
    for (const name of Object.keys(secretFiles())) expect(listing.paths).not.toContain(name);
    expect(listing.paths).toEqual(expect.arrayContaining(['README.md', 'src/index.ts', '.env.example', 'notes.txt']));
    const secret = listing.skipped.find((entry) => entry.reason === 'secret_file');
    expect(secret?.count).toBe(Object.keys(secretFiles()).length);
    expect(secret?.examples.length).toBeGreaterThan(0);
  });

  it('never offers, resolves or reads them — not by name, not through a symlink, not by a direct read', async () => {
    const repo = await openRepository(await corpusRepo(git), { listing: git ? 'auto' : 'walker' });
    const survey = await repo.survey();
    const shown = survey.candidates.map((candidate) => candidate.path);
    for (const name of [...Object.keys(secretFiles()), 'notes.txt', 'docs/key.txt']) {
      expect(shown).not.toContain(name);
      expect(await repo.resolveCandidate(name)).toBeUndefined();
    }
    expect(survey.skipped.find((entry) => entry.reason === 'secret_file')?.count).toBe(
      Object.keys(secretFiles()).length + 2,
    );
    const read = await repo.read(['.env', 'notes.txt', 'docs/key.txt', '.aws/credentials', 'README.md'], BUDGET);
    expect(read.files.map((file) => file.path)).toEqual(['README.md']);
    expect(read.skipped).toEqual([
      { reason: 'secret_file', count: 4, examples: ['.aws/credentials', '.env', 'docs/key.txt', 'notes.txt'] },
    ]);
    expect(repo.isSecretFile('./.env')).toBe(true);
    expect(repo.isSecretFile('README.md')).toBe(false);
  });

  it('a path into a credential directory lists nothing', async () => {
    const repo = await openRepository(await corpusRepo(git), { listing: git ? 'auto' : 'walker' });
    const listing = await repo.list('.ssh');
    expect(listing.paths).toEqual([]);
    expect(listing.skipped).toEqual([{ reason: 'secret_file', count: 1, examples: ['.ssh/config'] }]);
  });
});

describe('allowSecretFiles', () => {
  it('lets the named files back in, and only those', async () => {
    const root = await corpusRepo(false);
    const repo = await openRepository(root, {
      listing: 'walker',
      allowSecretFiles: ['.env.production', 'deploy/*.pem'],
    });
    const listing = await repo.list();
    expect(listing.paths).toEqual(expect.arrayContaining(['.env.production', 'deploy/server.pem']));
    expect(listing.paths).not.toContain('.env');
    expect(listing.paths).not.toContain('deploy/tls.key');
    expect((await repo.read(['.env.production'], BUDGET)).files).toHaveLength(1);
  });

  it('refuses an empty pattern', async () => {
    const root = await dirs.make('allow-');
    await expect(openRepository(root, { allowSecretFiles: [' '] })).rejects.toMatchObject({ code: 'config_invalid' });
  });
});
