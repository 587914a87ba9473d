/**
 * A deployed-era host as the peer: the 1.x SDK client (`@modelcontextprotocol/sdk` 1.32, protocol
 * 2025-11-25), which `initialize`s once and answers live `sampling/createMessage` requests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, McpError, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

/** `answer`: the host's model answers; `reject`: the user declines (error -1); `undeclared`: no sampling. */
export type SamplingMode = 'answer' | 'reject' | 'undeclared';

export const HOST_MODEL = 'legacy-host-model';
export const HOST_SUMMARY = 'Summary written by the 2025-11-25 host model.';
export const HOST_PICK = '["README.md","package.json"]';

export interface LegacyPeer {
  client: Client;
  /** The params of every sampling request the server sent, in order. */
  samples: Array<Record<string, any>>;
}

/** The 1.x client; its sampling handler answers `pick_files` first, then the summary. */
export function legacyPeer(mode: SamplingMode = 'answer', name = 'legacy-peer'): LegacyPeer {
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: mode === 'undeclared' ? {} : { sampling: {} } },
  );
  const samples: Array<Record<string, any>> = [];
  if (mode !== 'undeclared') {
    client.setRequestHandler(CreateMessageRequestSchema, async (request): Promise<CreateMessageResult> => {
      samples.push(request.params as Record<string, any>);
      if (mode === 'reject') throw new McpError(-1, 'User rejected sampling request');
      // summarize_repo asks pick_files with the cost preference, the summary with the intelligence one.
      const picking = request.params.modelPreferences?.costPriority === 0.8;
      return {
        role: 'assistant',
        content: { type: 'text', text: picking ? HOST_PICK : HOST_SUMMARY },
        model: HOST_MODEL,
        stopReason: 'endTurn',
      };
    });
  }
  return { client, samples };
}

/** A sampling request's params without the SDK's per-request `_meta` (its progress token). */
export function withoutMeta(params: Record<string, any> | undefined): Record<string, any> {
  const { _meta: _ignored, ...rest } = params ?? {};
  return rest;
}

/** The text blocks of a tool result. */
export function texts(result: unknown): string[] {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>)
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '');
}
