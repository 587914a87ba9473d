/**
 * Decides whether the host model's answer may go back to the server: a sampling result
 * (`role: "assistant"`, content blocks of valid shapes, a `model` name, an optional `stopReason`)
 * of at most `maxResponseBytes` of JSON; to a request that offered tools, tool uses with unique ids
 * and only the tools offered (none under `toolChoice: "none"`). Anything else is `response_invalid`.
 * Only those fields are sent back: whatever else a provider put on its answer stays in the host.
 */
import type { CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/client';

import type { CallPosition } from '../types.js';
import { checkContent } from './contentBlocks.js';
import type { RequestLimits } from './limits.js';
import { isObject, jsonBytes, refuse } from './refusal.js';
import { answerToolProblem, type OfferedTools } from './toolPairing.js';

/** UTF-8 bytes of the JSON of an answer (`Infinity` when it is not JSON). */
export function responseBytes(result: unknown): number {
  return jsonBytes(result) ?? Infinity;
}

export interface ResponseCheckOptions {
  /**
   * Whether the request offered `tools` (possible only when the host declared `sampling.tools`).
   * Without tools (the default) the spec's answer is one text, image or audio block; with tools it
   * may be one block or an array, tool_use and tool_result included.
   */
  toolsOffered?: boolean;
  /** The tools the request offered and its tool choice: the answer's tool uses must keep to them (implies `toolsOffered`). */
  offered?: OfferedTools;
}

/** What a validated request offered (`tools` or `toolChoice` present), for the answer's check. */
export function offeredTools(params: {
  tools?: ReadonlyArray<{ name: string }>;
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
}): OfferedTools | undefined {
  if (params.tools === undefined && params.toolChoice === undefined) return undefined;
  return { names: (params.tools ?? []).map((tool) => tool.name), mode: params.toolChoice?.mode ?? 'auto' };
}

/**
 * Checks the model's answer to input `key`; returns it with only the wire fields. Throws
 * `HostError('response_invalid')` naming the key and the limit passed.
 */
export function checkModelResponse(
  key: string,
  result: unknown,
  limits: RequestLimits,
  position: CallPosition,
  options?: ResponseCheckOptions & { toolsOffered?: false; offered?: undefined },
): CreateMessageResult;
export function checkModelResponse(
  key: string,
  result: unknown,
  limits: RequestLimits,
  position: CallPosition,
  options: ResponseCheckOptions,
): CreateMessageResultWithTools;
export function checkModelResponse(
  key: string,
  result: unknown,
  limits: RequestLimits,
  position: CallPosition,
  options: ResponseCheckOptions = {},
): CreateMessageResult | CreateMessageResultWithTools {
  const invalid = (text: string) => refuse('response_invalid', key, position, text);
  const bytes = responseBytes(result);
  if (bytes > limits.maxResponseBytes) {
    throw invalid(
      bytes === Infinity
        ? 'the model answer is not JSON'
        : `the model answer is ${bytes} bytes, the limit is ${limits.maxResponseBytes}`,
    );
  }
  if (!isObject(result)) throw invalid('the model answer must be an object');
  const { role, content, model, stopReason } = result;
  if (role !== 'assistant') throw invalid('the model answer must have role "assistant"');
  if (typeof model !== 'string') throw invalid('the model answer must name its model (a string)');
  if (stopReason !== undefined && typeof stopReason !== 'string') {
    throw invalid('the model answer stopReason must be a string');
  }
  const checked = checkContent(content, 'content');
  if (!checked.ok) throw invalid(`the model answer ${checked.problem}`);
  const answer = { role, model, ...(stopReason !== undefined && { stopReason }) } as const;
  if (options.offered !== undefined) {
    const problem = answerToolProblem(checked.content, options.offered);
    if (problem !== undefined) throw invalid(`the model answer ${problem}`);
  }
  if (options.toolsOffered === true || options.offered !== undefined) return { ...answer, content: checked.content };
  const single = checked.content;
  if (Array.isArray(single) || single.type === 'tool_use' || single.type === 'tool_result') {
    throw invalid('the model answer must be one text, image or audio block: the request offered no tools');
  }
  return { ...answer, content: single };
}
