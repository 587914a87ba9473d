/**
 * Decides whether one embedded request is well-formed and inside the request limits, and returns
 * it with unknown fields dropped. Sizes are checked before shapes, so an oversized prompt is refused
 * by its byte count alone; a tool loop's `tool_use`/`tool_result` pairing is checked after the shapes
 * (toolPairing.ts). `includeContext` other than `"none"` is `covert_context`; anything else
 * malformed or over a limit is `request_invalid`; a method the host does not fulfil is
 * `request_unsupported`.
 */
import type { CreateMessageRequestParams, JSONObject } from '@modelcontextprotocol/client';
import { z } from 'zod';

import type { CallPosition, RawInputRequest, ValidInputRequest } from '../types.js';
import { checkContent, type SamplingBlock } from './contentBlocks.js';
import type { RequestLimits } from './limits.js';
import { describeIssue, isObject, jsonBytes, quoted, refuse, utf8Bytes, utf8Over } from './refusal.js';
import { toolPairingProblem } from './toolPairing.js';
import { validateElicitation } from './validateElicitation.js';

/** UTF-8 bytes of the JSON of `messages` plus those of `systemPrompt`: what the size limits count. */
export function samplingRequestBytes(params: { messages?: unknown; systemPrompt?: unknown }): number {
  const messages = jsonBytes(params.messages);
  if (messages === undefined) throw new TypeError('sampling messages are not JSON');
  return messages + (typeof params.systemPrompt === 'string' ? utf8Bytes(params.systemPrompt) : 0);
}

/** A rough token count for `bytes` of prompt: about four bytes a token, rounded up. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(Math.max(0, bytes) / 4);
}

const priority = z.number().min(0).max(1).optional();
const optionalFields = z.object({
  modelPreferences: z
    .object({
      hints: z.array(z.object({ name: z.string().optional() })).optional(),
      costPriority: priority,
      speedPriority: priority,
      intelligencePriority: priority,
    })
    .optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  metadata: z.custom<JSONObject>((value) => isObject(value), { error: 'must be an object' }).optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string(),
        description: z.string().optional(),
        inputSchema: z.looseObject({ type: z.literal('object') }),
      }),
    )
    .optional(),
  toolChoice: z.object({ mode: z.enum(['auto', 'required', 'none']).optional() }).optional(),
});

type Sampling = Extract<ValidInputRequest, { method: 'sampling/createMessage' }>;

function validateSampling(key: string, raw: unknown, limits: RequestLimits, position: CallPosition): Sampling {
  const invalid = (text: string) => refuse('request_invalid', key, position, text);
  if (!isObject(raw)) throw invalid('sampling/createMessage params must be an object');
  const { includeContext, maxTokens, messages, systemPrompt } = raw;
  if (includeContext !== undefined && includeContext !== 'none') {
    const asked = includeContext === 'thisServer' || includeContext === 'allServers' ? includeContext : 'other';
    throw refuse('covert_context', key, position, `asks includeContext "${asked}", only "none" is fulfilled`);
  }
  if (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw invalid('maxTokens is required and must be a positive integer');
  }
  if (maxTokens > limits.maxTokens) throw invalid(`asks maxTokens ${maxTokens}, the limit is ${limits.maxTokens}`);
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages must be a non-empty array');
  if (messages.length > limits.maxMessages) {
    throw invalid(`has ${messages.length} messages, the limit is ${limits.maxMessages}`);
  }
  if (systemPrompt !== undefined && typeof systemPrompt !== 'string') throw invalid('systemPrompt must be a string');
  if (systemPrompt !== undefined && utf8Over(systemPrompt, limits.maxSystemPromptBytes)) {
    throw invalid(`systemPrompt is over ${limits.maxSystemPromptBytes} bytes, the limit`);
  }
  const bytes = jsonBytes(messages);
  if (bytes === undefined) throw invalid('messages are not plain JSON (too deeply nested)');
  const total = bytes + (systemPrompt === undefined ? 0 : utf8Bytes(systemPrompt));
  if (total > limits.maxMessageBytes) {
    throw invalid(`messages and systemPrompt are ${total} bytes, the limit is ${limits.maxMessageBytes}`);
  }
  const others = jsonBytes({ ...raw, messages: undefined, systemPrompt: undefined });
  if (others === undefined || others > limits.maxMessageBytes) {
    throw invalid(`tools, metadata and the other fields are over ${limits.maxMessageBytes} bytes, the limit`);
  }
  const checked: Array<{ role: 'user' | 'assistant'; content: SamplingBlock | SamplingBlock[] }> = [];
  for (const [index, message] of messages.entries()) {
    const path = `messages[${index}]`;
    if (!isObject(message)) throw invalid(`${path} must be an object`);
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw invalid(`${path}.role must be "user" or "assistant"`);
    }
    const content = checkContent(message.content, `${path}.content`);
    if (!content.ok) throw invalid(content.problem);
    checked.push({ role: message.role, content: content.content });
  }
  const pairing = toolPairingProblem(checked);
  if (pairing !== undefined) throw invalid(pairing);
  const rest = optionalFields.safeParse(raw);
  if (!rest.success) throw invalid(describeIssue(rest.error));
  const kept = { systemPrompt, includeContext: includeContext === 'none' ? ('none' as const) : undefined };
  const params = { messages: checked, maxTokens, ...definedOnly({ ...kept, ...rest.data }) };
  return { key, method: 'sampling/createMessage', params: params satisfies CreateMessageRequestParams };
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Validates one embedded request against `limits`; throws `HostError` (`request_invalid`,
 * `covert_context`, `request_unsupported`) naming the input key and the limit passed.
 */
export function validateInputRequest(
  request: RawInputRequest,
  limits: RequestLimits,
  position: CallPosition,
): ValidInputRequest {
  const { key, method, params } = request;
  switch (method) {
    case 'sampling/createMessage':
      return validateSampling(key, params, limits, position);
    case 'elicitation/create':
      return { key, method, params: validateElicitation(key, params, limits, position) };
    case 'roots/list':
      if (params !== undefined && !isObject(params)) {
        throw refuse('request_invalid', key, position, 'roots/list params must be an object when present');
      }
      return { key, method, params: {} };
    default:
      throw refuse('request_unsupported', key, position, `method ${quoted(method)} is not fulfilled by the host`);
  }
}
