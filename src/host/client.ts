/**
 * The client side our commands share: the official SDK client, pinned to 2026-07-28, whose
 * embedded-request handlers are the host's answers — a `CompletionModel` for
 * `sampling/createMessage`, an optional elicitation answerer, optional roots. The SDK drives the
 * MRTR retries (fresh ids, state echoed byte for byte); this module decides what is declared.
 */
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';

import type { CompletionModel } from '../models/modelSource.js';
import { VERSION } from '../version.js';
import { MODERN_REVISION } from '../protocol/revisions.js';

export interface HostClientOptions {
  name?: string;
  /** Answers embedded `sampling/createMessage`; declares `sampling` when set (with `tools` when it uses tools). */
  model?: CompletionModel;
  /** Answers embedded form-mode `elicitation/create`; declares `elicitation` when set. */
  elicit?: (params: ElicitRequestParams) => Promise<ElicitResult>;
  /** Answers embedded `roots/list`; declares `roots` when set. */
  roots?: Array<{ uri: string; name?: string }>;
  /** `pin` (default): 2026-07-28 only. `auto`: probe `server/discover` and fall back to `initialize`. */
  negotiation?: 'pin' | 'auto';
}

/**
 * What a host declares: exactly what it can answer (shared by createHostClient and createHost):
 * `sampling` with a model, and `sampling.tools` only when that model can use tools (SEP-1577).
 */
export function hostCapabilities(options: {
  model?: unknown;
  usesTools?: boolean;
  elicit?: unknown;
  roots?: unknown;
}): ClientCapabilities {
  return {
    ...(options.model !== undefined && { sampling: options.usesTools === true ? { tools: {} } : {} }),
    ...(options.elicit !== undefined && { elicitation: { form: {} } }),
    ...(options.roots !== undefined && { roots: {} }),
  };
}

export function createHostClient(options: HostClientOptions): Client {
  const client = new Client(
    { name: options.name ?? 'mcp-model-input', version: VERSION },
    {
      capabilities: hostCapabilities({ ...options, usesTools: options.model?.usesTools === true }),
      versionNegotiation: { mode: options.negotiation === 'auto' ? 'auto' : { pin: MODERN_REVISION } },
    },
  );
  const { model, elicit, roots } = options;
  if (model !== undefined) {
    // Inside the MRTR driver the context id is the `inputRequests` key, e.g. `pick_files`.
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      model.complete({ key: String(ctx.mcpReq.id), params: request.params, signal: ctx.mcpReq.signal }),
    );
  }
  if (elicit !== undefined) client.setRequestHandler('elicitation/create', (request) => elicit(request.params));
  if (roots !== undefined) client.setRequestHandler('roots/list', () => ({ roots }));
  return client;
}
