/**
 * Which era a stdio connection serves, as the envelope gate in front of the SDK's `serveStdio` sees
 * it. The SDK pins a connection to one era at its opening (`initialize`: 2025-11-25; an enveloped
 * request other than `server/discover`: 2026-07-28). The gate must check the 2026-07-28 envelope of
 * every request on a modern connection and stand aside on a legacy one, so it follows the same rules:
 *
 * - `initialize` without a valid 2026-07-28 envelope (the SDK's test for the handshake: a claim naming
 *   another revision does not make it modern) passes; the connection is legacy once the SDK answers it
 *   with an `initialize` result (seen on the way out), so a refused handshake changes nothing;
 * - while the era is open, such an `initialize` that is malformed is refused here (-32602): the SDK
 *   would pin the connection legacy on it before its own validation refused it;
 * - a `ping` without an envelope while the handshake is unanswered passes (2025-11-25 allows it); any other
 *   message that arrives before the handshake is answered (a client that pipelines `initialize`,
 *   `notifications/initialized` and `tools/list`) is held, and asked about again in order once it is answered:
 *   then in the era the handshake chose (legacy after an `initialize` result, still open after a refusal);
 * - any other request is gated; the first one that passes (other than `server/discover`) makes it modern;
 * - a notification without an envelope claim is dropped while the era is open: the SDK would pin the
 *   connection legacy on it, behind the gate's back (the SDK drops it too when legacy is refused).
 */
import { isInitializeRequest } from '@modelcontextprotocol/server';

import { carriesValidEnvelope, hasEnvelopeClaim, type EnvelopeRejection } from '../protocol/envelope.js';
import type { StdioEraTracker } from '../server/era.js';

export type StdioEra = 'opening' | 'modern' | 'legacy';

/** The stdio era tracker, with the era it has settled on (for tests and diagnostics). */
export interface LegacyStdioEraTracker extends StdioEraTracker {
  readonly era: StdioEra;
}

/** The gate's answer to a malformed `initialize` while the era is open. */
const MALFORMED_INITIALIZE: EnvelopeRejection = {
  code: -32602,
  message: 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo',
};

interface Fields {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
}

export function createStdioEraTracker(): LegacyStdioEraTracker {
  let era: StdioEra = 'opening';
  let handshake: unknown;
  return {
    get era() {
      return era;
    },
    inbound(raw) {
      const message = (raw ?? {}) as Fields;
      if (typeof message.method !== 'string' || era === 'legacy') return 'pass';
      const isRequest = typeof message.id === 'string' || typeof message.id === 'number';
      if (isRequest && message.method === 'initialize' && !carriesValidEnvelope(message.params)) {
        if (era === 'opening' && !isInitializeRequest(raw)) return { refuse: MALFORMED_INITIALIZE };
        handshake = message.id;
        return 'pass';
      }
      // 2025-11-25 allows pings while its handshake is unanswered; the SDK has pinned the connection already.
      if (isRequest && handshake !== undefined && message.method === 'ping' && !hasEnvelopeClaim(message.params)) {
        return 'pass';
      }
      if (handshake !== undefined) return 'hold';
      if (isRequest) return 'gate';
      return era === 'opening' && !hasEnvelopeClaim(message.params) ? 'drop' : 'pass';
    },
    holding: () => handshake !== undefined,
    admitted(method) {
      if (era === 'opening' && method !== 'server/discover') era = 'modern';
    },
    outbound(raw) {
      const message = (raw ?? {}) as Fields;
      if (handshake === undefined || message.method !== undefined || message.id !== handshake) return;
      handshake = undefined;
      // Only an initialize result: an answer to another request that reused the id changes nothing.
      const result = message.result as { protocolVersion?: unknown } | undefined;
      if (era === 'opening' && typeof result?.protocolVersion === 'string') era = 'legacy';
    },
  };
}
