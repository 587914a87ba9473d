/**
 * The official MCP client as a peer: pinned to 2026-07-28, it must connect, discover and list tools.
 * It gets its own connection (a second process on stdio; the same endpoint over HTTP).
 */
import { Client, type Transport } from '@modelcontextprotocol/client';

import type { AuditContext } from '../context.js';
import type { FetchLike } from '../httpChannel.js';
import { clientTransport, splitCommand } from '../../host/target.js';
import type { AuditTarget } from '../types.js';
import { MODERN_REVISION } from '../../protocol/revisions.js';

export interface InteropOptions {
  target: AuditTarget;
  timeoutMs: number;
  fetch?: FetchLike;
  headers?: Record<string, string>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function createTransport(options: InteropOptions): Transport {
  if (options.target.transport === 'stdio') {
    const [command, ...args] = splitCommand(options.target.command);
    return clientTransport({ kind: 'stdio', command: command as string, args, stderr: 'ignore' });
  }
  return clientTransport({
    kind: 'http',
    url: options.target.url,
    ...(options.fetch !== undefined && { fetch: options.fetch as typeof fetch }),
    ...(options.headers !== undefined && { headers: options.headers }),
  });
}

export async function checkInterop(ctx: AuditContext, options: InteropOptions): Promise<void> {
  const client = new Client(ctx.clientInfo, {
    capabilities: {},
    versionNegotiation: { mode: { pin: MODERN_REVISION } },
  });
  try {
    await withTimeout(client.connect(createTransport(options)), options.timeoutMs, 'connect');
    // A pinned connect already ran server/discover; ask again only if it kept nothing.
    const discover =
      client.getDiscoverResult() ?? (await withTimeout(client.discover(), options.timeoutMs, 'server/discover'));
    const { tools } = await withTimeout(client.listTools(), options.timeoutMs, 'tools/list');
    ctx.record(
      'interop.official_client',
      'pass',
      `supportedVersions ${JSON.stringify(discover.supportedVersions)}; ${tools.length} tool(s)`,
    );
  } catch (error) {
    ctx.record('interop.official_client', 'fail', (error as Error).message.split('\n')[0] ?? 'failed');
  } finally {
    await withTimeout(client.close(), options.timeoutMs, 'close').catch(() => {});
  }
}
