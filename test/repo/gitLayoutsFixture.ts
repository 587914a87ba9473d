/**
 * Work trees whose `.git` is a file, made with real git in temporary directories: a linked worktree, a submodule's
 * checkout, a separate git directory named by an absolute path, and the same named by a relative one. Each holds
 * the same files and ignores `build/` (its `.gitignore`) and `secret.env` (its repository's `info/exclude`).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TempDirs } from './fixture.js';
import { writeTree } from './fixture.js';

export interface GitLayout {
  /** The work tree (its `.git` is a file). */
  root: string;
  gitDir: string;
  /** Where `info/exclude` lives. */
  commonDir: string;
}

export type GitLayouts = Record<'worktree' | 'submodule' | 'separate' | 'relative', GitLayout>;

const FILES = {
  'README.md': '# layout\n',
  'src/main.ts': 'export const main = 1;\n',
  '.gitignore': 'build/\n',
};
const UNTRACKED = { 'build/out.js': 'built\n', 'secret.env': 'TOKEN=x\n' };

/** Runs git isolated from the user's and the system's configuration, with an identity for commits. */
function gitIn(home: string): (cwd: string, args: string[]) => string {
  return (cwd, args) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
      {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: home,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
        },
      },
    );
}

async function commitAll(git: ReturnType<typeof gitIn>, root: string): Promise<void> {
  await writeTree(root, FILES);
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'files']);
}

async function exclude(commonDir: string): Promise<void> {
  await mkdir(path.join(commonDir, 'info'), { recursive: true });
  await writeFile(path.join(commonDir, 'info', 'exclude'), 'secret.env\n');
}

export async function makeGitLayouts(temp: TempDirs): Promise<GitLayouts> {
  const base = await temp.make('layouts-');
  const home = path.join(base, 'home');
  await mkdir(home);
  const git = gitIn(home);

  // A linked worktree of `main`: its git directory is main/.git/worktrees/wt, `commondir` leads back to main/.git.
  const main = path.join(base, 'main');
  await mkdir(main);
  git(main, ['init', '-q']);
  await commitAll(git, main);
  const worktree = path.join(base, 'wt');
  git(main, ['worktree', 'add', '-q', '-b', 'side', worktree]);

  // A submodule's checkout: `gitdir: ../.git/modules/sub`, a full git directory of its own.
  const lib = path.join(base, 'lib');
  await mkdir(lib);
  git(lib, ['init', '-q']);
  await commitAll(git, lib);
  const parent = path.join(base, 'parent');
  await mkdir(parent);
  git(parent, ['init', '-q']);
  git(parent, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub']);
  const submodule = path.join(parent, 'sub');

  // `git init --separate-git-dir`: an absolute `gitdir:`; the second is rewritten to name its directory relatively.
  const separate = path.join(base, 'separate');
  const separateGit = path.join(base, 'separate.git');
  await mkdir(separate);
  git(separate, ['init', '-q', '--separate-git-dir', separateGit]);
  await commitAll(git, separate);
  const relative = path.join(base, 'relative');
  const relativeGit = path.join(base, 'store', 'relative.git');
  await mkdir(relative);
  await mkdir(path.dirname(relativeGit));
  git(relative, ['init', '-q', '--separate-git-dir', relativeGit]);
  await commitAll(git, relative);
  await writeFile(path.join(relative, '.git'), 'gitdir: ../store/relative.git\n');

  const layouts: GitLayouts = {
    worktree: {
      root: worktree,
      gitDir: path.join(main, '.git', 'worktrees', 'wt'),
      commonDir: path.join(main, '.git'),
    },
    submodule: {
      root: submodule,
      gitDir: path.join(parent, '.git', 'modules', 'sub'),
      commonDir: path.join(parent, '.git', 'modules', 'sub'),
    },
    separate: { root: separate, gitDir: separateGit, commonDir: separateGit },
    relative: { root: relative, gitDir: relativeGit, commonDir: relativeGit },
  };
  for (const layout of Object.values(layouts)) {
    await exclude(layout.commonDir);
    await writeTree(layout.root, UNTRACKED);
  }
  return layouts;
}
