/**
 * `mcp-model-input discover`: what a server says about itself — name (unverified), version,
 * revision, capabilities and tools — through the host runtime's negotiation (`server/discover`,
 * falling back to `initialize`). Exit codes as for `call` (0, 2, 5).
 */
import { isHostError } from '../host/hostError.js';
import { createHost, type Discovery } from '../host/createHost.js';
import { printable, terminalSafe, terminalSafeJson } from '../protocol/sanitize.js';
import { parseCommandArgs } from './args.js';
import { CALL_EXIT } from './call.js';
import { HOST_TARGET_OPTIONS, hostTargetFromFlags, withServerStderr } from './hostTarget.js';
import { DISCOVER_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

function firstLine(text: string | undefined, max = 100): string {
  const line = printable(text ?? '').split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function renderDiscovery(discovery: Discovery): string {
  const { server } = discovery;
  const lines = [
    `server:   ${printable(server.name)}${server.version === undefined ? '' : ` ${printable(server.version)}`} (unverified: the server's own claim)`,
    `target:   ${server.key}`,
    `revision: ${discovery.protocolVersion ?? 'unknown'} (${discovery.era === 'modern' ? 'stateless' : 'legacy, session-based'})`,
    `capabilities: ${Object.keys(discovery.capabilities).sort().join(', ') || '(none)'}`,
    `tools (${discovery.tools.length}):`,
    ...discovery.tools.map((tool) => `  ${printable(tool.name)}  ${firstLine(tool.description)}`),
  ];
  return lines.join('\n');
}

export async function runDiscover(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('discover', argv, {
    ...HOST_TARGET_OPTIONS,
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    writeLine(io.stdout, DISCOVER_USAGE);
    return CALL_EXIT.ok;
  }
  if (positionals.length > 0) {
    writeLine(io.stderr, `mcp-model-input: discover: unexpected argument '${positionals[0]}'\n\n${DISCOVER_USAGE}`);
    return CALL_EXIT.usage;
  }
  const target = hostTargetFromFlags('discover', values, io.env);
  const serverStderr = withServerStderr('discover', target, values['server-stderr'], { output: io.stderr });
  // No models, no elicitation, no roots: discovery declares nothing and answers nothing.
  const host = createHost({ name: 'mcp-model-input-discover' });
  try {
    const connection = await host.connect(target);
    try {
      const discovery = await connection.discover();
      writeLine(io.stdout, values.json === true ? terminalSafeJson(discovery, 2) : renderDiscovery(discovery));
      return CALL_EXIT.ok;
    } finally {
      await connection.close().catch(() => {});
    }
  } catch (error) {
    if (!isHostError(error)) throw error;
    // The message may quote the server (a JSON-RPC error): no terminal controls, bounded.
    writeLine(io.stderr, terminalSafe(`mcp-model-input: discover failed (${error.code}): ${error.message}`, 2000));
    return CALL_EXIT.protocolError;
  } finally {
    await serverStderr.close();
  }
}
