/**
 * Decides whether a round's embedded requests stay inside what the host declared. The host fulfils
 * only `sampling/createMessage`, `elicitation/create` and `roots/list` (anything else, such as a
 * `tools/call` meant to make the host call a tool, is `request_unsupported`), and each only when
 * the request's `clientCapabilities` declared it (`capability_undeclared`): `sampling`, plus
 * `sampling.tools` for `tools`/`toolChoice` and for messages carrying `tool_use`/`tool_result` blocks; `elicitation` (`{}` or `form` for form mode, `url` for
 * URL mode); `roots`. The caller checks the whole round before fulfilling any of it.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';

import type { CallPosition, RawInputRequest } from '../types.js';
import { isObject, quoted, refuse } from './refusal.js';

function elicitationModes(declared: ClientCapabilities): { form: boolean; url: boolean } | undefined {
  const elicitation: unknown = declared.elicitation;
  if (!isObject(elicitation)) return undefined;
  const keys = Object.keys(elicitation);
  // `elicitation: {}` declares form mode (the spec's backwards-compatible reading).
  if (keys.length === 0) return { form: true, url: false };
  return { form: elicitation.form !== undefined, url: elicitation.url !== undefined };
}

/** Whether any message carries a `tool_use` or `tool_result` block: a tool loop the host must have agreed to. */
function carriesToolBlocks(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((message) => {
    const content: unknown = isObject(message) ? message.content : undefined;
    const blocks: unknown[] = Array.isArray(content) ? content : [content];
    return blocks.some((block) => isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result'));
  });
}

function checkOne(request: RawInputRequest, declared: ClientCapabilities, position: CallPosition): void {
  const { key, method } = request;
  const params: Record<string, unknown> = isObject(request.params) ? request.params : {};
  const undeclared = (capability: string) =>
    refuse('capability_undeclared', key, position, `${method} needs the ${capability} capability, not declared`);
  switch (method) {
    case 'sampling/createMessage':
      if (!isObject(declared.sampling)) throw undeclared('sampling');
      if (
        (params.tools !== undefined || params.toolChoice !== undefined || carriesToolBlocks(params.messages)) &&
        !isObject(declared.sampling.tools)
      ) {
        throw undeclared('sampling.tools');
      }
      return;
    case 'elicitation/create': {
      const modes = elicitationModes(declared);
      if (modes === undefined) throw undeclared('elicitation');
      const mode = params.mode ?? 'form';
      if (mode === 'url' && !modes.url) throw undeclared('elicitation.url');
      if (mode === 'form' && !modes.form) throw undeclared('elicitation.form');
      return;
    }
    case 'roots/list':
      if (!isObject(declared.roots)) throw undeclared('roots');
      return;
    default:
      throw refuse('request_unsupported', key, position, `method ${quoted(method)} is not fulfilled by the host`);
  }
}

/**
 * Checks every embedded request of one round against the declared capabilities; throws the first
 * refusal (`request_unsupported` or `capability_undeclared`, with `detail.key` and `detail.round`).
 */
export function checkCapabilities(
  requests: readonly RawInputRequest[],
  declared: ClientCapabilities,
  position: CallPosition,
): void {
  for (const request of requests) checkOne(request, declared, position);
}
