/**
 * Decides whether a round's embedded requests stay inside what the host declared. The host fulfils
 * only `sampling/createMessage`, `elicitation/create` and `roots/list` (anything else, such as a
 * `tools/call` meant to make the host call a tool, is `request_unsupported`), and each only when
 * the request's `clientCapabilities` declared what it needs (`capability_undeclared`; the rules are
 * protocol/capabilities.ts, shared with the server and the audit). The caller checks the whole round
 * before fulfilling any of it.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';

import type { CallPosition, RawInputRequest } from '../types.js';
import { isInputRequestMethod, missingCapability } from '../../protocol/capabilities.js';
import { quoted, refuse } from './refusal.js';

function checkOne(request: RawInputRequest, declared: ClientCapabilities, position: CallPosition): void {
  const { key, method } = request;
  if (!isInputRequestMethod(method)) {
    throw refuse('request_unsupported', key, position, `method ${quoted(method)} is not fulfilled by the host`);
  }
  const missing = missingCapability(method, request.params, declared);
  if (missing !== undefined) {
    throw refuse(
      'capability_undeclared',
      key,
      position,
      `${method} needs the ${missing.capability} capability, not declared`,
    );
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
