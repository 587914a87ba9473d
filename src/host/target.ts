/**
 * Where a client connects, and how: a target (`--stdio "COMMAND"`, `--url URL`, or any SDK
 * transport) turned into the official client's transport. The host runtime, the commands and the
 * audit's interop check build their transports here, one way.
 */
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';

import { ModelInputError } from '../errors.js';
import { createCappedFetch } from './cappedFetch.js';
import { createPrefixedStderr } from './serverStderr.js';
import { DetachedStdioTransport } from './stdioTransport.js';
import { sharedTerminalGate } from './terminalGate.js';
import { createTracingFetch, createTracingTransport, type TraceSink } from './trace.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export type HostTarget =
  | {
      kind: 'stdio';
      command: string;
      args?: string[];
      cwd?: string;
      env?: Record<string, string>;
      /**
       * The server's stderr: a stream (see serverStderr.ts), discarded, or `inherit`ed (the server then shares the
       * host's stderr, a terminal perhaps). Default: prefixed lines on `process.stderr`, held while a dialog is open.
       */
      stderr?: 'inherit' | 'ignore' | NodeJS.WritableStream;
    }
  | { kind: 'http'; url: string; fetch?: Fetch; bearerToken?: string; headers?: Record<string, string> }
  /** Any SDK transport; `key` identifies the server for remembering and rate limits. */
  | { kind: 'transport'; transport: Transport; key: string };

export interface ClientTransportOptions {
  /** Every message (stdio, transport) or HTTP exchange goes here too. */
  trace?: TraceSink;
  /** The most an HTTP response body may hold (see cappedFetch.ts). */
  maxResponseBodyBytes?: number;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The server's identity for remembered approvals, rules and rate limits: the URL, or `stdio:` and
 * the command line quoted so that different argv never share a key (`node 'a b'` is not `node a b`).
 */
export function targetKey(target: HostTarget): string {
  if (target.kind === 'http') return target.url;
  if (target.kind === 'stdio') return `stdio:${[target.command, ...(target.args ?? [])].map(shellWord).join(' ')}`;
  return target.key;
}

export function clientTransport(target: HostTarget, options: ClientTransportOptions = {}): Transport {
  const { trace } = options;
  if (target.kind === 'transport') {
    return trace === undefined ? target.transport : createTracingTransport(target.transport, trace);
  }
  if (target.kind === 'stdio') {
    // Not the SDK's StdioClientTransport: it cannot start the server without the user's terminal (stdioTransport.ts).
    const transport = new DetachedStdioTransport({
      command: target.command,
      args: target.args ?? [],
      stderr: target.stderr ?? createPrefixedStderr({ output: process.stderr, terminal: sharedTerminalGate() }),
      ...(target.cwd !== undefined && { cwd: target.cwd }),
      ...(target.env !== undefined && { env: target.env }),
    });
    return trace === undefined ? transport : createTracingTransport(transport, trace);
  }
  const untraced = createCappedFetch(target.fetch ?? fetch, options.maxResponseBodyBytes);
  const base = trace === undefined ? untraced : createTracingFetch(untraced, trace);
  const extra = {
    ...target.headers,
    ...(target.bearerToken !== undefined && { authorization: `Bearer ${target.bearerToken}` }),
  };
  const withHeaders: Fetch =
    Object.keys(extra).length === 0
      ? base
      : (url, init) => {
          const headers = new Headers(init?.headers);
          for (const [name, value] of Object.entries(extra)) headers.set(name, value);
          return base(url, { ...init, headers });
        };
  return new StreamableHTTPClientTransport(new URL(target.url), { fetch: withHeaders });
}

/**
 * Splits `--stdio "COMMAND"` into argv the way a POSIX shell would for simple words: whitespace
 * separates, single quotes are literal, double quotes allow \" and \\, a backslash escapes one
 * character. No expansion, pipes or redirections: the command is spawned without a shell.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (command[index + 1] === '"' || command[index + 1] === '\\')) word += command[++index];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (char === '\\' && index + 1 < command.length) {
      word += command[++index];
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quote !== undefined) throw new ModelInputError('usage', `--stdio: unterminated ${quote} quote in the command`);
  if (started) words.push(word);
  if (words.length === 0) throw new ModelInputError('usage', '--stdio: the command is empty');
  return words;
}
