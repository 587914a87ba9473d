/** Sections 2, 3 and 5: the discovery contract, the request envelope with its exact errors, and retries. */
import type { EnvelopeError, Plan, Wire } from './types.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import { neededModelSteps } from './decision.js';
import type { Workflow } from './workflow.js';

export const LIST_TTL_MS = 300_000;
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export function serverIdentity(workflow: Workflow): { name: string; version: string } {
  return workflow.server ?? { name: `${workflow.tool.name.replaceAll('_', '-')}-server`, version: '1.0.0' };
}

export function buildDiscovery(workflow: Workflow): Plan['discovery'] {
  const meta = { [SERVER_INFO]: serverIdentity(workflow) };
  const tool = {
    name: workflow.tool.name,
    ...(workflow.tool.title !== undefined && { title: workflow.tool.title }),
    description: workflow.tool.description,
    inputSchema: workflow.tool.arguments,
  };
  return {
    discover: {
      resultType: 'complete',
      supportedVersions: [MODERN_REVISION],
      capabilities: { tools: {} },
      ttlMs: LIST_TTL_MS,
      cacheScope: 'public',
      _meta: meta,
    },
    toolsList: { resultType: 'complete', tools: [tool], ttlMs: LIST_TTL_MS, cacheScope: 'public', _meta: meta },
  };
}

/** Whether the tool's sampling uses tools: a needed model step runs a tool loop, or the design says so. */
export function usesSamplingTools(workflow: Workflow): boolean {
  return (
    workflow.design?.sampling?.tools === true || neededModelSteps(workflow).some((step) => step.tools !== undefined)
  );
}

export function requiredCapabilities(workflow: Workflow): Record<string, unknown> {
  return { sampling: usesSamplingTools(workflow) ? { tools: {} } : {} };
}

export function buildEnvelope(workflow: Workflow, wire: Wire): Plan['envelope'] {
  const errors: EnvelopeError[] = [
    {
      case: '`_meta`, its `protocolVersion` or `clientCapabilities` missing; `protocolVersion` not a string',
      code: -32602,
      data: 'free',
      http: 400,
    },
    {
      case: '`protocolVersion` is a string but not supported',
      code: -32022,
      data: `{"supported":["${MODERN_REVISION}"],"requested":"<as sent>"}`,
      http: 400,
    },
    { case: 'invalid arguments for the tool, or an unknown tool name', code: -32602, data: 'free', http: 400 },
  ];
  if (wire === 'mrtr') {
    errors.push(
      {
        case: usesSamplingTools(workflow)
          ? `\`tools/call\` \`${workflow.tool.name}\` without the \`sampling\` capability or its \`sampling.tools\` (a model step uses tools; checked before any work)`
          : `\`tools/call\` \`${workflow.tool.name}\` without the \`sampling\` capability (checked before any work)`,
        code: -32021,
        data: JSON.stringify({ requiredCapabilities: requiredCapabilities(workflow) }),
        http: 400,
      },
      {
        case: '`requestState` bad, expired, tampered or bound elsewhere; malformed `inputResponses`',
        code: -32602,
        data: 'fixed message, no details',
        http: 400,
      },
    );
  }
  errors.push(
    {
      case: 'HTTP: the `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` header disagrees with the body',
      code: -32020,
      data: 'free',
      http: 400,
    },
    { case: 'unknown method', code: -32601, data: '-', http: 404 },
  );
  return {
    errors,
    notifications:
      'A message without an id is a notification: never answered, neither result nor error. ' +
      'Over Streamable HTTP an accepted notification gets 202 Accepted with an empty body.',
  };
}

export function buildRetry(wire: Wire, tools = false): Plan['retry'] {
  if (wire === 'legacy') {
    return {
      applies: false,
      rules: [
        'No MRTR retries: the 2025-11-25 adapter sends each sampling request live within the one tools/call.',
        'A rejected or failed sampling request ends the call with an isError result; the client does not retry.',
      ],
    };
  }
  if (wire !== 'mrtr') {
    return { applies: false, rules: ['Every tools/call completes in one request: there is nothing to retry.'] };
  }
  return {
    applies: true,
    rules: [
      'The retry is a new request: same method (tools/call) and same name and arguments, byte for byte.',
      'A fresh JSON-RPC id every round; the first request and each retry are independent.',
      "inputResponses holds this round's answers only, under the keys of the last inputRequests.",
      'requestState is echoed exactly as received (none if none was given); the client never parses it.',
      `Each request carries its own _meta: protocolVersion, clientCapabilities (with sampling${tools ? ' and sampling.tools' : ''}), clientInfo.`,
      'A missing answer gets a new input_required for it (within the round cap), not an error.',
      'A declined request simply ends the flow: the client does not retry.',
      ...(tools
        ? [
            "A tool loop round is a retry like any other: the model's tool_use answer goes back in inputResponses; " +
              'the server runs the tools and answers with the next input_required (or the complete result).',
          ]
        : []),
    ],
  };
}
