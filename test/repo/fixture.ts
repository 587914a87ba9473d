import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A temporary directory removed by {@link TempDirs.cleanup}. */
export class TempDirs {
  private readonly dirs: string[] = [];

  async make(prefix = 'repo-'): Promise<string> {
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), `mcp-model-input-${prefix}`)));
    this.dirs.push(dir);
    return dir;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** Writes files given as POSIX paths relative to `root`, creating parent directories. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const absolute = path.join(root, ...relative.split('/'));
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
  }
}

/**
 * A work tree (its files, and a `.git` directory) served with a stand-in `git`: a shell script (by default one that
 * hangs until it is killed, so a test can cancel or queue calls while git runs). `git` is the script's path.
 */
export async function repoWithFakeGit(
  temp: TempDirs,
  options: { files: Record<string, string | Uint8Array>; script?: string },
): Promise<{ root: string; git: string }> {
  const root = await temp.make();
  await writeTree(root, options.files);
  await mkdir(path.join(root, '.git'));
  const bin = await temp.make('bin-');
  const git = path.join(bin, 'git');
  await writeFile(git, `#!/bin/sh\n${options.script ?? 'exec sleep 30'}\n`);
  await chmod(git, 0o755);
  return { root, git };
}

/** Creates a FIFO with `mkfifo`; returns false where that is not possible. */
export function tryMkfifo(absolute: string): boolean {
  try {
    execFileSync('mkfifo', [absolute], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const runningAsRoot = process.getuid?.() === 0;

/** Runs git isolated from the user's and the system's configuration (no global excludes file). */
export function git(cwd: string, args: string[]): string {
  const home = path.join(cwd, '.git', 'isolated-home');
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
}

/** Every path below `root` (files, directories, links, .git contents), relative and found without the reader. */
export async function everyPath(root: string, dir = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(path.join(root, dir))) {
    const relative = dir === '' ? name : `${dir}/${name}`;
    out.push(relative);
    if ((await lstat(path.join(root, relative))).isDirectory()) out.push(...(await everyPath(root, relative)));
  }
  return out;
}
