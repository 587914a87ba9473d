/**
 * Which client capability an embedded request needs (revision 2026-07-28, MRTR; the same rules hold
 * for a 2025-11-25 client's live requests). One function, used by the server before it asks
 * (-32021), by the host before it answers, and by the audit when it judges a server:
 *
 * - `sampling/createMessage` needs `sampling`; with `tools` or `toolChoice`, or with messages that
 *   carry `tool_use`/`tool_result` blocks (a tool loop in progress), `sampling.tools` as well;
 * - `elicitation/create` needs `elicitation`: form mode (the default) needs `elicitation.form` or the
 *   bare `elicitation: {}` (the spec's backwards-compatible reading); URL mode needs `elicitation.url`;
 * - `roots/list` needs `roots`.
 * A capability is declared when its value is an object. Any other method is not an input request.
 */
import { isPlainObject } from './json.js';

/** The methods a server may embed in `input_required` (and send live on 2025-11-25). */
export const INPUT_REQUEST_METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

export function isInputRequestMethod(method: string): method is InputRequestMethod {
  return (INPUT_REQUEST_METHODS as readonly string[]).includes(method);
}

/** What an embedded request lacks: the dotted capability name and the `requiredCapabilities` object. */
export interface CapabilityShortfall {
  /** `sampling`, `sampling.tools`, `elicitation`, `elicitation.form`, `elicitation.url` or `roots`. */
  capability: string;
  /** As in the -32021 error's `data.requiredCapabilities`, e.g. `{ sampling: { tools: {} } }`. */
  required: Record<string, unknown>;
}

/** Whether any message carries a `tool_use` or `tool_result` block. */
export function carriesToolBlocks(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((message) => {
    const content: unknown = isPlainObject(message) ? message['content'] : undefined;
    const blocks: unknown[] = Array.isArray(content) ? content : [content];
    return blocks.some(
      (block) => isPlainObject(block) && (block['type'] === 'tool_use' || block['type'] === 'tool_result'),
    );
  });
}

/** Whether a sampling request uses tools: `tools`, `toolChoice`, or tool blocks in its messages. */
export function samplingUsesTools(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  return params['tools'] !== undefined || params['toolChoice'] !== undefined || carriesToolBlocks(params['messages']);
}

function shortfall(capability: string): CapabilityShortfall {
  const [top, sub] = capability.split('.') as [string, string | undefined];
  return { capability, required: { [top]: sub === undefined ? {} : { [sub]: {} } } };
}

/**
 * The capability an input request needs and `declared` lacks; `undefined` when it is allowed.
 * Throws nothing: a method that is not an input request is reported by `isInputRequestMethod`.
 */
export function missingCapability(method: string, params: unknown, declared: unknown): CapabilityShortfall | undefined {
  const caps = isPlainObject(declared) ? declared : {};
  const request = isPlainObject(params) ? params : {};
  switch (method) {
    case 'sampling/createMessage': {
      const sampling = caps['sampling'];
      if (!isPlainObject(sampling)) return shortfall('sampling');
      if (samplingUsesTools(request) && !isPlainObject(sampling['tools'])) return shortfall('sampling.tools');
      return undefined;
    }
    case 'elicitation/create': {
      const elicitation = caps['elicitation'];
      if (!isPlainObject(elicitation)) return shortfall('elicitation');
      const bare = Object.keys(elicitation).length === 0;
      if (request['mode'] === 'url')
        return isPlainObject(elicitation['url']) ? undefined : shortfall('elicitation.url');
      return bare || isPlainObject(elicitation['form']) ? undefined : shortfall('elicitation.form');
    }
    case 'roots/list':
      return isPlainObject(caps['roots']) ? undefined : shortfall('roots');
    default:
      return undefined;
  }
}
