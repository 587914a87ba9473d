/** `--stdio "COMMAND" | --url URL` for the host commands (`call`, `discover`), and where a stdio server's stderr goes. */
import { splitCommand } from '../host/target.js';
import { ModelInputError } from '../errors.js';
import type { HostTarget } from '../host/createHost.js';
import { openServerStderr, parseServerStderr, type ServerStderrTarget } from '../host/serverStderr.js';
import type { TerminalGate } from '../host/terminalGate.js';

export const HOST_TARGET_OPTIONS = {
  stdio: { type: 'string' },
  url: { type: 'string' },
  'token-env': { type: 'string' },
  'server-stderr': { type: 'string' },
} as const;

/**
 * `--server-stderr` for a stdio target: the stream the server's stderr goes to (prefixed lines on `output` by
 * default, held while a dialog holds `terminal`), set on the target; `close` ends it when the call is done.
 */
export function withServerStderr(
  command: string,
  target: HostTarget,
  value: string | undefined,
  options: { output: NodeJS.WritableStream; terminal?: TerminalGate },
): ServerStderrTarget {
  if (target.kind !== 'stdio') {
    if (value !== undefined) throw new ModelInputError('usage', `${command}: --server-stderr applies to --stdio only`);
    return { stderr: 'ignore', close: async () => {} };
  }
  const opened = openServerStderr(parseServerStderr(value ?? 'prefixed'), options);
  target.stderr = opened.stderr;
  return opened;
}

export function hostTargetFromFlags(
  command: string,
  values: { stdio?: string | undefined; url?: string | undefined; 'token-env'?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): HostTarget {
  if ((values.stdio === undefined) === (values.url === undefined)) {
    throw new ModelInputError('usage', `${command}: pass exactly one of --stdio "COMMAND" or --url URL (see --help)`);
  }
  if (values.stdio !== undefined) {
    if (values['token-env'] !== undefined)
      throw new ModelInputError('usage', `${command}: --token-env applies to --url only`);
    const [file, ...args] = splitCommand(values.stdio);
    if (file === undefined) throw new ModelInputError('usage', `${command}: --stdio needs a command`);
    return { kind: 'stdio', command: file, args };
  }
  let url: URL;
  try {
    url = new URL(values.url as string);
  } catch {
    throw new ModelInputError('usage', `${command}: --url '${values.url}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelInputError('usage', `${command}: --url must be http(s)`);
  }
  const tokenVariable = values['token-env'];
  if (tokenVariable === undefined) return { kind: 'http', url: url.href };
  const token = env[tokenVariable]?.trim();
  if (token === undefined || token === '') {
    throw new ModelInputError('usage', `${command}: --token-env ${tokenVariable}: the variable is not set`);
  }
  return { kind: 'http', url: url.href, bearerToken: token };
}
