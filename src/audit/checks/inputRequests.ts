/**
 * One input_required result, inspected: its shape (and no cache hints), every embedded request
 * against the capabilities the request declared, sampling parameters and includeContext. Failures
 * are recorded as they are found; the caller records the passes.
 */
import { isInputRequestMethod, missingCapability } from '../../protocol/capabilities.js';
import { isPlainObject, type AuditContext } from '../context.js';
import type { ObservedRequest } from '../types.js';

/** Problems with one embedded request under the declared capabilities; empty when it is allowed. */
function capabilityProblems(
  key: string,
  request: { method: string; params: unknown },
  declared: Record<string, unknown>,
): string[] {
  if (!isInputRequestMethod(request.method)) return [`${key}: ${request.method} is not an input request method`];
  const missing = missingCapability(request.method, request.params, declared);
  return missing === undefined ? [] : [`${key}: ${request.method} without the ${missing.capability} capability`];
}

export function inspectInputRequired(
  ctx: AuditContext,
  result: Record<string, unknown>,
  declared: Record<string, unknown>,
  round: number,
  observe: boolean,
): Record<string, { method: string; params: unknown }> {
  const shape: string[] = [];
  const inputRequests = result['inputRequests'];
  const state = result['requestState'];
  if (inputRequests === undefined && state === undefined) shape.push('neither inputRequests nor requestState');
  if (inputRequests !== undefined && !isPlainObject(inputRequests)) shape.push('inputRequests is not an object');
  if (state !== undefined && typeof state !== 'string') shape.push('requestState is not a string');
  if ('ttlMs' in result || 'cacheScope' in result) shape.push('cache hints on an input_required result');
  const requests: Record<string, { method: string; params: unknown }> = {};
  for (const [key, value] of Object.entries(isPlainObject(inputRequests) ? inputRequests : {})) {
    if (!isPlainObject(value) || typeof value['method'] !== 'string' || !isPlainObject(value['params'])) {
      shape.push(`inputRequests.${key} is not {method, params}`);
      continue;
    }
    const request = { method: value['method'], params: value['params'] };
    requests[key] = request;
    for (const problem of capabilityProblems(key, request, declared))
      ctx.record('mrtr.declared_capabilities_only', 'fail', `round ${round}: ${problem}`);
    if (request.method !== 'sampling/createMessage') continue;
    const params = request.params as Record<string, unknown>;
    const messages = params['messages'];
    const maxTokens = params['maxTokens'];
    if (!Array.isArray(messages) || messages.length === 0)
      ctx.record('mrtr.sampling_params', 'fail', `round ${round}: ${key} has no messages`);
    if (!(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0)) {
      ctx.record('mrtr.sampling_params', 'fail', `round ${round}: ${key} has no integer maxTokens`);
    }
    const context = params['includeContext'];
    if (context !== undefined && context !== 'none') {
      ctx.record(
        'mrtr.include_context',
        'fail',
        `round ${round}: ${key} sends includeContext ${JSON.stringify(context)}`,
      );
    }
    if (observe) ctx.observed.rounds.push(observation(round, key, request.method, params));
  }
  if (shape.length > 0) ctx.record('mrtr.input_required_shape', 'fail', `round ${round}: ${shape.join('; ')}`);
  return requests;
}

function observation(
  round: number,
  inputKey: string,
  method: string,
  params: Record<string, unknown>,
): ObservedRequest {
  const messages = Array.isArray(params['messages']) ? params['messages'] : [];
  return {
    round,
    inputKey,
    method,
    ...(typeof params['maxTokens'] === 'number' && { maxTokens: params['maxTokens'] }),
    ...(typeof params['includeContext'] === 'string' && { includeContext: params['includeContext'] }),
    ...(isPlainObject(params['modelPreferences']) && { modelPreferences: params['modelPreferences'] }),
    systemPrompt: typeof params['systemPrompt'] === 'string',
    messages: messages.length,
    promptBytes: Buffer.byteLength(JSON.stringify(messages), 'utf8'),
    tools: 'tools' in params,
  };
}
