/**
 * `mcp-model-input discover`: what a server says about itself — name (unverified), version,
 * revision, capabilities and tools — through the host runtime's negotiation (`server/discover`,
 * falling back to `initialize`), and which client capabilities it declared (`--declare`): a server may list
 * more tools to a client that declares more. Exit codes as for `call` (0, 2, 5).
 */
import { ModelInputError } from '../errors.js';
import { isHostError } from '../host/hostError.js';
import { defaultBuiltinModel } from '../app/builtinModels.js';
import { parseHostModelSpec } from '../host/hostModels.js';
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

/** The capabilities `--declare` may name, in the order they are shown. */
export const DECLARABLE = ['sampling', 'elicitation', 'roots'] as const;
type Declarable = (typeof DECLARABLE)[number];

function parseDeclare(value: string | undefined): Declarable[] {
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !(DECLARABLE as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new ModelInputError('usage', `--declare takes ${DECLARABLE.join(', ')}; got '${unknown}'`);
  }
  return DECLARABLE.filter((name) => names.includes(name));
}

/** What was declared, and (when not everything) that a server may list more tools to a client that declares more. */
function declaredLines(declared: readonly Declarable[]): string[] {
  const lines = [`declared: ${declared.length === 0 ? '(none)' : declared.join(', ')}`];
  if (declared.length < DECLARABLE.length) {
    lines.push(
      `note:     a server may list more tools to a client that declares more: --declare ${DECLARABLE.join(',')}`,
    );
  }
  return lines;
}

export function renderDiscovery(discovery: Discovery, declared: readonly Declarable[] = []): string {
  const { server } = discovery;
  const lines = [
    `server:   ${printable(server.name)}${server.version === undefined ? '' : ` ${printable(server.version)}`} (unverified: the server's own claim)`,
    `target:   ${server.key}`,
    `revision: ${discovery.protocolVersion ?? 'unknown'} (${discovery.era === 'modern' ? 'stateless' : 'legacy, session-based'})`,
    `capabilities: ${Object.keys(discovery.capabilities).sort().join(', ') || '(none)'}`,
    ...declaredLines(declared),
    `tools (${discovery.tools.length}):`,
    ...discovery.tools.map((tool) => `  ${printable(tool.name)}  ${firstLine(tool.description)}`),
  ];
  return lines.join('\n');
}

export async function runDiscover(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('discover', argv, {
    ...HOST_TARGET_OPTIONS,
    declare: { type: 'string' },
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
  const declared = parseDeclare(values.declare);
  // Declared only as asked, and never answered: discovery calls no tool, so no request comes.
  const host = createHost({
    name: 'mcp-model-input-discover',
    ...(declared.includes('sampling') && {
      models: await parseHostModelSpec('builtin', { builtin: defaultBuiltinModel() }),
    }),
    ...(declared.includes('elicitation') && { elicit: async () => ({ action: 'decline' as const }) }),
    ...(declared.includes('roots') && { roots: [] }),
  });
  try {
    const connection = await host.connect(target);
    try {
      const discovery = await connection.discover();
      writeLine(
        io.stdout,
        values.json === true ? terminalSafeJson({ ...discovery, declared }, 2) : renderDiscovery(discovery, declared),
      );
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
