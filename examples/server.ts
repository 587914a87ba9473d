/**
 * A server in a few lines: `summarize_repo` over a directory, on stdio, for any MCP host. Its steps
 * use the host's model when the client declares sampling (MRTR rounds) and the built-in heuristic
 * otherwise.
 *
 *   tsx examples/server.ts DIR
 */
import {
  createEphemeralKeyRing,
  createModelInputServer,
  createStderrLogger,
  localPrincipal,
  parseModelSpec,
  serveModelInputStdio,
} from '../src/entries/server.js';

const logger = createStderrLogger({ quiet: true });
const server = createModelInputServer({
  root: process.argv[2] ?? process.cwd(),
  models: parseModelSpec('host,builtin'),
  // A stdio server is one process: a per-process key is exactly right.
  keyRing: createEphemeralKeyRing(),
  logger,
  defaultPrincipal: localPrincipal(),
});
const handle = serveModelInputStdio(server, { logger });
process.stdin.once('end', () => void handle.close());
