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
  const module = (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)) as { server: Connectable };
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
