/**
 * `migrate --write` edits files in place only where the change can be reviewed and undone: inside a git work tree
 * whose files under the directory have no uncommitted change (untracked files included).
 */
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 30_000;

function git(dir: string, args: string[]): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: dir, timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve({ ok: error === null, stdout: String(stdout) });
    });
  });
}

/** Why the directory is not a clean git work tree, or undefined when it is one. */
export async function uncleanWorkTree(dir: string): Promise<string | undefined> {
  const inside = await git(dir, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.stdout.trim() !== 'true') return 'it is not inside a git work tree';
  const status = await git(dir, ['status', '--porcelain', '--untracked-files=all', '--', '.']);
  if (!status.ok) return 'git status failed there';
  const dirty = status.stdout.split('\n').filter((line) => line.trim() !== '');
  if (dirty.length === 0) return undefined;
  const shown = dirty.slice(0, 5).map((line) => line.slice(3));
  return `its work tree has uncommitted changes (${shown.join(', ')}${dirty.length > 5 ? `, and ${dirty.length - 5} more` : ''})`;
}
