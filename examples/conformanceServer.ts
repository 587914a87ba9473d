/**
 * The fixture server the official conformance suite judges — built on the project's own stack:
 * the HTTP front (Host/Origin checks, envelope gate, body cap), the low-level server assembly and
 * tool registry, the sealed request-state codec, and the MRTR round machinery of summarize_repo.
 *
 * Usage: tsx examples/conformanceServer.ts [--port N]   (prints `listening <url>` when ready)
 */
import { parseArgs } from 'node:util';

import type { SealedRound } from '../src/flows/inputRounds.js';
import { createStderrLogger } from '../src/logger.js';
import { createServerFactory } from '../src/server/createServer.js';
import { principalFromAuthInfo } from '../src/server/principals.js';
import { createEphemeralKeyRing, createStateCodec } from '../src/state/index.js';
import { createHttpFront, defaultAllowedHosts, defaultAllowedOrigins } from '../src/transports/http.js';
import { listenHttp } from '../src/transports/nodeHttp.js';
import { contentTools } from './conformance/contentTools.js';
import { inputTools } from './conformance/inputTools.js';
import { registerSurface } from './conformance/surface.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const logger = createStderrLogger({ quiet: true });
const rounds = {
  codec: createStateCodec<SealedRound<unknown>>({ keyRing: createEphemeralKeyRing() }),
  logger,
};
const factory = createServerFactory({
  identity: { name: 'mcp-model-input-conformance-fixture', version: '1.0.0' },
  tools: [...contentTools(), ...inputTools(rounds)],
  resolvePrincipal: (authInfo) => principalFromAuthInfo(authInfo, 'anonymous'),
  capabilities: { prompts: {}, resources: {}, completions: {} },
  extend: (server, principal) => registerSurface(server, principal, rounds),
});

const server = await listenHttp(
  (port) => {
    const hosts = defaultAllowedHosts('127.0.0.1', port);
    return createHttpFront({ factory, logger, allowedHosts: hosts, allowedOrigins: defaultAllowedOrigins(hosts) });
  },
  '127.0.0.1',
  Number(values.port),
);
process.stdout.write(`listening ${server.origin}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
