/**
 * The legacy era as one plug-in: everything that serves clients pinned to revision 2025-11-25 while
 * sampling is deprecated (SEP-2577; removable on or after 2027-07-28). app/ creates it and hands each
 * front its part; nothing else imports this folder.
 */
import type { Server } from '@modelcontextprotocol/server';

import type { Logger } from '../logger.js';
import type { ProtocolEra } from '../server/era.js';
import { createDeprecationNotice } from './deprecation.js';
import { createLegacyHttpLeg } from './httpSessions.js';
import { LegacyAwareServer } from './legacyServer.js';
import type { LegacyHttpOptions, LegacyServerOptions } from './options.js';
import { createStdioEraTracker } from './stdioEra.js';

export { SAMPLING_DEPRECATION_WARNING } from './deprecation.js';
export { SAMPLING_REJECTED_CODE } from './legacyServer.js';
export { DEFAULT_MAX_SAMPLES_PER_CALL, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from './options.js';
export type { LegacyHttpOptions, LegacyServerOptions } from './options.js';

export interface LegacyEraOptions extends LegacyServerOptions, LegacyHttpOptions {
  /** Where the one-time deprecation warning goes when a client negotiates sampling. */
  logger: Logger;
}

export function createLegacyEra(options: LegacyEraOptions): ProtocolEra {
  const {
    logger,
    maxSessions,
    sessionIdleSeconds,
    maxSessionsPerPrincipal,
    sessionLifetimeSeconds,
    sessionGraceSeconds,
    localAnonymous,
    now,
    sessionIdPrefix,
    ...serverOptions
  } = options;
  const legacyServer: LegacyServerOptions = {
    onSamplingNegotiated: createDeprecationNotice(logger),
    ...serverOptions,
  };
  const http: LegacyHttpOptions = {
    ...(maxSessions !== undefined && { maxSessions }),
    ...(sessionIdleSeconds !== undefined && { sessionIdleSeconds }),
    ...(maxSessionsPerPrincipal !== undefined && { maxSessionsPerPrincipal }),
    ...(sessionLifetimeSeconds !== undefined && { sessionLifetimeSeconds }),
    ...(sessionGraceSeconds !== undefined && { sessionGraceSeconds }),
    ...(localAnonymous !== undefined && { localAnonymous }),
    ...(now !== undefined && { now }),
    ...(sessionIdPrefix !== undefined && { sessionIdPrefix }),
  };
  return {
    server: {
      createServer: (identity, serverOptionsForUnit) =>
        new LegacyAwareServer(identity, serverOptionsForUnit, legacyServer),
      serveToolCall: (server: Server, ctx, tool, run) =>
        server instanceof LegacyAwareServer ? server.serveToolCall(ctx, tool, run) : run(undefined),
    },
    stdio: createStdioEraTracker,
    http: (front) => createLegacyHttpLeg({ ...http, ...front }),
  };
}
