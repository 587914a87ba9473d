/**
 * The fixture server the official conformance suite judges — built on the project's own stack:
 * the HTTP front (Host/Origin checks, envelope gate, body cap), the low-level server assembly and
 * tool registry, the sealed request-state codec, and the MRTR round machinery of summarize_repo.
 *
 * Usage: tsx examples/conformanceServer.ts [--port N]   (prints `listening <url>` when ready)
 */
import { parseArgs } from 'node:util';

import type { McpServerFactory } from '@modelcontextprotocol/server';

import {
  createEphemeralKeyRing,
  createHttpFront,
  createLegacyEra,
  createServerFactory,
  createStateCodec,
  createStderrLogger,
  defaultAllowedHosts,
  defaultAllowedOrigins,
  listenHttp,
  openTaskService,
  principalFromAuthInfo,
} from '../src/entries/server.js';
import type { SealedRound, ServerFactoryOptions } from '../src/entries/server.js';
import { contentTools } from './conformance/contentTools.js';
import { inputTools } from './conformance/inputTools.js';
import { legacyTools } from './conformance/legacyTools.js';
import { registerLegacySurface, registerSurface } from './conformance/surface.js';
import { taskTools } from './conformance/taskTools.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const logger = createStderrLogger({ quiet: true });
const rounds = {
  codec: createStateCodec<SealedRound<unknown>>({ keyRing: createEphemeralKeyRing() }),
  logger,
};
// The 2025-11-25 era plugged in, as `serve` does: both factories' servers and the HTTP front's sessions.
const era = createLegacyEra({ logger });
// The tasks extension (SEP-2663) in this process, as `serve --tasks on` with `--store memory:`.
const tasks = openTaskService({ logger });
const common: Pick<ServerFactoryOptions, 'identity' | 'tools' | 'resolvePrincipal' | 'era'> = {
  identity: { name: 'mcp-model-input-conformance-fixture', version: '1.0.0' },
  tools: [...contentTools(), ...inputTools(rounds), ...legacyTools(rounds), ...taskTools(rounds)],
  resolvePrincipal: (authInfo) => principalFromAuthInfo(authInfo, 'anonymous'),
  era: era.server,
};
// 2025-11-25 sessions never get tasks: only the modern factory has the task service.
const modern = createServerFactory({
  ...common,
  tasks,
  capabilities: { prompts: {}, resources: {}, completions: {} },
  extend: (server, principal) => registerSurface(server, principal, rounds),
});
// A 2025-11-25 session also gets what revision 2026-07-28 removed: `logging` (the SDK then serves
// `logging/setLevel` itself) and resource subscriptions. Same tools, written once.
const legacy = createServerFactory({
  ...common,
  capabilities: { prompts: {}, resources: { subscribe: true }, completions: {}, logging: {} },
  extend: (server, principal) => {
    registerSurface(server, principal, rounds);
    registerLegacySurface(server);
  },
});
const factory: McpServerFactory = (context) => (context.era === 'legacy' ? legacy : modern)(context);

const server = await listenHttp(
  (port) => {
    const hosts = defaultAllowedHosts('127.0.0.1', port);
    return createHttpFront({
      factory,
      logger,
      allowedHosts: hosts,
      allowedOrigins: defaultAllowedOrigins(hosts),
      sessions: era.http,
    });
  },
  '127.0.0.1',
  Number(values.port),
);
process.stdout.write(`listening ${server.origin}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
