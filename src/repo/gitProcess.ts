/**
 * Running git read-only inside a repository that is not trusted: bounded in time and output, isolated from the
 * caller's `GIT_*` environment, with the settings that could run a program or change the answer turned off.
 */
import { spawn } from 'node:child_process';
import { createLimiter } from './limit.js';
import type { WalkerReason } from './types.js';

/**
 * `git` children the whole process runs at once: every listing, ignored-entries query and history read of every
 * request shares this pool, so concurrent tool calls cannot start hundreds of processes. The rest wait their turn.
 */
export const MAX_GIT_PROCESSES = 8;
const gitPool = createLimiter(MAX_GIT_PROCESSES);
let running = 0;

/** How many `git` children run right now (for tests and the stress report). */
export function gitProcessesRunning(): number {
  return running;
}

export interface GitRunOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Larger output is an error (the process is killed). */
  maxBytes: number;
  /** Aborting kills the child (or never starts it); the result is then `git_failed`. */
  signal?: AbortSignal;
}

export type GitRunResult =
  { ok: true; stdout: Buffer } | { ok: false; reason: Exclude<WalkerReason, 'disabled' | 'not_a_git_work_tree'> };

/**
 * `core.fsmonitor` names a program git would start; `core.excludesFile` is the user's global ignore file, which
 * is not part of the repository (and which the walker cannot see), so both are off.
 */
const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.excludesFile='];

/** The caller's environment without `GIT_*` variables (GIT_DIR, GIT_INDEX_FILE… would point git elsewhere). */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  env['GIT_OPTIONAL_LOCKS'] = '0';
  env['GIT_TERMINAL_PROMPT'] = '0';
  return env;
}

export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitRunResult> {
  return gitPool(async () => {
    if (options.signal?.aborted) return { ok: false, reason: 'git_failed' } as const;
    running++;
    try {
      return await spawnGit(args, options);
    } finally {
      running--;
    }
  });
}

function spawnGit(args: readonly string[], options: GitRunOptions): Promise<GitRunResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitRunResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      resolve(result);
    };
    const abort = (): void => {
      child.kill('SIGKILL');
      finish({ ok: false, reason: 'git_failed' });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.command, [...SAFE_CONFIG, ...args], {
        cwd: options.cwd,
        env: gitEnvironment(),
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
      });
    } catch {
      resolve({ ok: false, reason: 'git_unavailable' });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, reason: 'git_timeout' });
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', abort, { once: true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxBytes) {
        child.kill('SIGKILL');
        finish({ ok: false, reason: 'git_output_too_large' });
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        reason: error.code === 'ENOENT' || error.code === 'EACCES' ? 'git_unavailable' : 'git_failed',
      });
    });
    child.on('close', (code) => {
      finish(code === 0 ? { ok: true, stdout: Buffer.concat(chunks, bytes) } : { ok: false, reason: 'git_failed' });
    });
  });
}

/** Splits `-z` output (decoded as UTF-8) into its NUL-terminated entries (the empty tail dropped). */
export function splitNul(text: string): string[] {
  if (text === '') return [];
  const entries = text.split('\0');
  if (entries[entries.length - 1] === '') entries.pop();
  return entries;
}
