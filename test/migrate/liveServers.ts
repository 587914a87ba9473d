/**
 * Fixture servers run in process for the end-to-end tests: a server module laid out in a temporary directory (its
 * packages resolved from this project's node_modules), imported, and called by the official SDK v1 client on
 * 2025-11-25 over an in-memory transport, with a scripted model behind the client's sampling handler.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

import type { FileMap } from './servers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each import of a server module gets a fresh instance (its own server object), even within one millisecond. */
let imports = 0;
async function importServer<T>(file: string): Promise<T> {
  imports += 1;
  return (await import(`${pathToFileURL(file).href}?instance=${imports}`)) as T;
}

/** What a scripted host model answers: a pure function of the request, so two runs can be compared. */
export function scriptedAnswer(params: {
  messages: Array<{ content: unknown }>;
  maxTokens: number;
}): CreateMessageResult {
  const last = params.messages.at(-1)?.content as { type?: string; text?: string } | undefined;
  const prompt = last?.type === 'text' ? (last.text ?? '') : JSON.stringify(last ?? null);
  return {
    role: 'assistant',
    model: 'scripted',
    stopReason: 'endTurn',
    content: { type: 'text', text: `answer(${prompt.length}:${prompt.slice(0, 24)})` },
  };
}

/** Lays the files out in a temporary directory whose node_modules is this project's. */
export async function layOutServer(files: FileMap): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mmi-migrate-live-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

interface Connectable {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Imports `file` (which exports `server`), connects a 2025-11-25 client that samples with the scripted model. */
export async function callOnLegacySession(
  file: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ result: unknown; samples: number }> {
  const module = await importServer<{ server: Connectable }>(file);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'migrate-e2e', version: '1.0.0' }, { capabilities: { sampling: {} } });
  let samples = 0;
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    samples++;
    return scriptedAnswer(request.params as Parameters<typeof scriptedAnswer>[0]);
  });
  await module.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: tool, arguments: args });
    return { result, samples };
  } finally {
    await client.close();
    await module.server.close();
  }
}

/**
 * Imports `file` (which exports `server`) and calls the tool on 2026-07-28 (stateless, MRTR) through the SDK's own
 * HTTP handler in process, with the official v2 client pinned to 2026-07-28: it declares sampling and answers each
 * `input_required` round with the scripted model. Counts the rounds it answered.
 */
export async function callOnModernRequest(
  file: string,
  tool: string,
  args: Record<string, unknown>,
  options: { sampling?: boolean } = {},
): Promise<{ result: unknown; rounds: number; error?: string }> {
  const { Client: ModernClient, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const module = await importServer<{
    server: Parameters<typeof createMcpHandler>[0] extends (...args: never[]) => infer R ? Awaited<R> : never;
  }>(file);
  const handler = createMcpHandler(() => module.server);
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const sampling = options.sampling ?? true;
  const client = new ModernClient(
    { name: 'migrate-e2e', version: '1.0.0' },
    { capabilities: sampling ? { sampling: {} } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  let rounds = 0;
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', (request) => {
      rounds++;
      return scriptedAnswer(request.params as Parameters<typeof scriptedAnswer>[0]);
    });
  }
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: tool, arguments: args });
    return { result, rounds };
  } catch (error) {
    return { result: undefined, rounds, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close();
    await handler.close();
  }
}
