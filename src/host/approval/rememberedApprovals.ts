/**
 * The "Always for this server and tool" choices of the prompt approver, kept in a small JSON file:
 * `{ "version": 1, "always": [{ "server": "<server key>", "tool": "<tool>" }] }`. Written atomically
 * (temporary file + rename, mode 0600); a file that is not in this shape is refused, never rewritten.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import { ModelInputError } from '../../errors.js';

export interface RememberedApproval {
  /** `ConnectedServer.key`: the URL or `stdio:` command line, never the server's self-declared name. */
  server: string;
  tool: string;
}

export interface RememberedApprovals {
  version: 1;
  always: RememberedApproval[];
}

export const REMEMBER_FILE_NAME = 'approvals.json';
const MAX_REMEMBER_FILE_BYTES = 1024 * 1024;

/**
 * `$MCP_MODEL_INPUT_CONFIG_DIR/approvals.json`, else `$XDG_CONFIG_HOME/mcp-model-input/approvals.json`,
 * else `~/.config/mcp-model-input/approvals.json`.
 */
export function defaultRememberFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_MODEL_INPUT_CONFIG_DIR) return join(env.MCP_MODEL_INPUT_CONFIG_DIR, REMEMBER_FILE_NAME);
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'mcp-model-input', REMEMBER_FILE_NAME);
}

function corrupt(file: string, problem: string, cause?: unknown): ModelInputError<'config_invalid'> {
  return new ModelInputError(
    'config_invalid',
    `remembered approvals ${file}: ${problem} (fix or delete the file)`,
    cause === undefined ? undefined : { cause },
  );
}

function isEntry(value: unknown): value is RememberedApproval {
  if (typeof value !== 'object' || value === null) return false;
  const { server, tool, ...rest } = value as Record<string, unknown>;
  return typeof server === 'string' && typeof tool === 'string' && Object.keys(rest).length === 0;
}

/** The remembered approvals; a missing file is an empty list, a malformed one a `config_invalid` error. */
export async function readRememberedApprovals(file: string): Promise<RememberedApprovals> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { version: 1, always: [] };
    throw corrupt(file, `cannot be read (${code ?? 'error'})`, error);
  }
  if (text.length > MAX_REMEMBER_FILE_BYTES) throw corrupt(file, `larger than ${MAX_REMEMBER_FILE_BYTES} bytes`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, 'not valid JSON', error);
  }
  const { version, always } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (version !== 1) throw corrupt(file, 'expected "version": 1');
  if (!Array.isArray(always) || !always.every(isEntry)) {
    throw corrupt(file, 'expected "always" to be a list of { "server", "tool" } entries');
  }
  return { version: 1, always };
}

export function isRemembered(approvals: RememberedApprovals, serverKey: string, tool: string): boolean {
  return approvals.always.some((entry) => entry.server === serverKey && entry.tool === tool);
}

/** Adds (serverKey, tool) to the file unless it is there: read, then write a temporary file and rename it. */
export async function rememberAlways(file: string, serverKey: string, tool: string): Promise<void> {
  const approvals = await readRememberedApprovals(file);
  if (isRemembered(approvals, serverKey, tool)) return;
  approvals.always.push({ server: serverKey, tool });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(approvals, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    throw new ModelInputError(
      'config_invalid',
      `remembered approvals ${file}: cannot be written (${code ?? 'error'})`,
      {
        cause: error,
      },
    );
  }
}
