/**
 * Runs a command under a real pseudo-terminal without native modules: util-linux `script`
 * (`script -qfec "<command>" /dev/null`, Debian package bsdutils) allocates the pty, our pipes feed its
 * keyboard and read its screen. The command sees TTYs on stdin, stdout and stderr (`stty` sets the
 * window size first). Every wait is bounded and a timeout shows the captured screen.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const UP = '\x1b[A';
export const CTRL_C = '\x03';
export const BACKSPACE = '\x7f';

export const SCRIPT_BINARY = '/usr/bin/script';

export interface PtyOptions {
  cwd?: string;
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
}

export interface PtyProcess {
  /** Everything the command printed so far, with ANSI sequences and carriage returns removed. */
  output(): string;
  /** Everything the command printed so far, byte for byte (escape sequences included). */
  raw(): string;
  /**
   * Resolves once `pattern` appears in the output after the previous match (each match consumes
   * the output up to its end, so a prompt asked twice needs two waits). Rejects on timeout or exit.
   */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Types `keys` on the terminal's keyboard. */
  write(keys: string): void;
  /** The command's exit code (`script -e` passes it through); null when killed by a signal. */
  exit: Promise<number | null>;
  /** SIGKILL to the whole process group (script and the command). */
  kill(): void;
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function screenText(raw: string): string {
  return stripVTControlCharacters(raw).replace(/\r/g, '');
}

export function spawnPty(command: string, args: string[], options: PtyOptions = {}): PtyProcess {
  if (!existsSync(SCRIPT_BINARY)) {
    throw new Error(`${SCRIPT_BINARY} is missing: PTY tests need util-linux script (apt-get install bsdutils)`);
  }
  const columns = options.columns ?? 100;
  const rows = options.rows ?? 40;
  const line = `stty cols ${columns} rows ${rows} 2>/dev/null; exec ${[command, ...args].map(shellQuote).join(' ')}`;
  const child = spawn(SCRIPT_BINARY, ['-qfec', line, '/dev/null'], {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      TERM: 'xterm-256color',
      COLUMNS: String(columns),
      LINES: String(rows),
      SHELL: '/bin/sh',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let raw = '';
  let cursor = 0;
  let exited = false;
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    for (const listener of [...listeners]) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<number | null>((resolve) => {
    // 'close' (not 'exit'): every byte the command printed has been read by then.
    child.once('close', (code) => {
      exited = true;
      for (const listener of [...listeners]) listener();
      resolve(code);
    });
  });

  function waitFor(pattern: string | RegExp, timeoutMs = 10_000): Promise<void> {
    const describe = typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern);
    return new Promise((resolve, reject) => {
      const check = () => {
        const rest = screenText(raw).slice(cursor);
        const found =
          typeof pattern === 'string'
            ? { index: rest.indexOf(pattern), length: pattern.length }
            : ((match) =>
                match === null ? { index: -1, length: 0 } : { index: match.index, length: match[0].length })(
                new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(rest),
              );
        if (found.index >= 0) {
          cursor += found.index + found.length;
          done();
          resolve();
        } else if (exited) {
          done();
          reject(new Error(`exited before ${describe} appeared; screen:\n${screenText(raw)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${describe} within ${timeoutMs} ms; screen:\n${screenText(raw)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  }

  return {
    output: () => screenText(raw),
    raw: () => raw,
    waitFor,
    write: (keys) => {
      if (!exited) child.stdin.write(keys);
    },
    exit,
    kill: () => {
      if (exited || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}
