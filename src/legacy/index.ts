/**
 * The legacy era as one plug-in: everything that serves clients pinned to revision 2025-11-25 while
 * sampling is deprecated (SEP-2577; removable on or after 2027-07-28). app/ creates it and hands each
 * front its part; nothing else imports this folder.
 *
 * Removal plan (the adapter goes when sampling leaves the specification):
 * 1. Now: on by default; the first legacy client that negotiates sampling is named in the log once per process.
 * 2. The next minor release after 2027-07-28 (or earlier, once the hosts served speak 2026-07-28): the
 *    default becomes `--legacy off`.
 * 3. The release after: delete this folder; in app/modelInputServer.ts its import, the `createLegacyEra(...)`
 *    line and the `legacy` option (`LegacyOptions`); its re-exports in entries/server.ts (only these two files
 *    may import src/legacy/: a rule in .dependency-cruiser.cjs); the six flags in cli/serve.ts (`--legacy`,
 *    `--max-samples-per-call`, `--max-sessions`, `--session-idle`, `--max-sessions-per-principal`,
 *    `--session-lifetime`) with their --help lines and docs/cli.md rows; the 2025-11-25 section of
 *    docs/deployment.md; test/legacy/ and the legacy cases of other tests; the 2025-11-25 conformance run and
 *    its baseline. The seam (server/era.ts) and `ToolContext.hostUnavailable` may stay for a later era; the
 *    core serves 2026-07-28 without this plug-in (test/app/withoutLegacy.test.ts).
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
