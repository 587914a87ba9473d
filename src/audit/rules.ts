/** The rules `audit` checks, in report order, each with the specification page it comes from. */
import { MODERN_REVISION } from '../protocol/revisions.js';

export const SPEC_BASE = `https://modelcontextprotocol.io/specification/${MODERN_REVISION}/`;

export interface RuleDefinition {
  id: string;
  title: string;
  spec: string;
}

const rule = (id: string, title: string, page: string): RuleDefinition => ({ id, title, spec: `${SPEC_BASE}${page}` });
const MRTR = 'basic/patterns/mrtr';

export const RULES: readonly RuleDefinition[] = [
  rule(
    'protocol.revision',
    'The server speaks 2026-07-28: it answers server/discover (a server that answers only the 2025-11-25 initialize does not)',
    'server/discover',
  ),
  rule(
    'discover.result',
    'server/discover is complete, lists 2026-07-28 in supportedVersions and has capabilities',
    'server/discover',
  ),
  rule(
    'discover.cache_hints',
    'server/discover carries ttlMs (integer >= 0) and cacheScope (public or private)',
    'server/utilities/caching',
  ),
  rule('tools_list.result', 'tools/list is complete; every tool has a name and an object inputSchema', 'server/tools'),
  rule(
    'tools_list.cache_hints',
    'tools/list carries ttlMs (integer >= 0) and cacheScope (public or private)',
    'server/utilities/caching',
  ),
  rule(
    'tools_list.deterministic',
    'tools/list is identical on repeated requests: same tools, same order',
    'server/utilities/caching',
  ),
  rule(
    'result.server_info',
    'Every result carries _meta io.modelcontextprotocol/serverInfo with name and version',
    'basic/index',
  ),
  rule(
    'input_required.allowed_methods',
    'input_required never answers server/discover or tools/list, whatever is declared',
    `${MRTR}#supported-requests`,
  ),
  rule(
    'envelope.invalid_params',
    '-32602 for a missing _meta, version or capabilities and a non-string version (HTTP 400)',
    'basic/index',
  ),
  rule(
    'envelope.unsupported_version',
    '-32022 with data exactly {supported, requested} for an unsupported version (HTTP 400)',
    'basic/index',
  ),
  rule(
    'envelope.missing_capability',
    '-32021 with data.requiredCapabilities when the tool needs an undeclared capability (HTTP 400)',
    'basic/index',
  ),
  rule('methods.unknown', '-32601 for an unknown method (HTTP 404)', 'basic/index'),
  rule(
    'notifications.unanswered',
    'Notifications get no response at all (HTTP: 202 Accepted with no body, or a 4xx without a JSON-RPC response)',
    'basic/index',
  ),
  rule(
    'transport.no_sessions',
    'No Mcp-Session-Id: every request is served without initialize or a session',
    'basic/transports/streamable-http',
  ),
  rule(
    'transport.no_server_requests',
    'The server never sends requests to the client (no live sampling/createMessage)',
    MRTR,
  ),
  rule('transport.stdout_clean', 'stdio: nothing but JSON-RPC messages on stdout', 'basic/transports/stdio'),
  rule(
    'interop.official_client',
    'The official MCP client pinned to 2026-07-28 connects, discovers and lists tools',
    'server/discover',
  ),
  rule('tool.listed', 'The named tool is listed by tools/list', 'server/tools'),
  rule(
    'mrtr.fresh_ids_accepted',
    "Retries with fresh ids, this round's inputResponses and the echoed requestState complete within the round cap",
    `${MRTR}#basic-workflow`,
  ),
  rule(
    'mrtr.input_required_shape',
    'input_required results carry inputRequests or requestState, well formed, without cache hints',
    `${MRTR}#server-requirements-basic-workflow`,
  ),
  rule(
    'mrtr.declared_capabilities_only',
    'Embedded requests stay within the capabilities the request declared',
    `${MRTR}#server-requirements-basic-workflow`,
  ),
  rule(
    'mrtr.sampling_params',
    'Embedded sampling/createMessage requests carry messages and an integer maxTokens',
    'client/sampling',
  ),
  rule('mrtr.include_context', 'Embedded sampling requests omit includeContext or send "none"', 'client/sampling'),
  rule('mrtr.state_tampered', 'A tampered requestState is rejected with -32602', `${MRTR}#security-considerations`),
  rule(
    'mrtr.state_arguments_bound',
    'requestState replayed under changed arguments is rejected with -32602',
    `${MRTR}#server-requirements-basic-workflow`,
  ),
  rule(
    'mrtr.state_tool_bound',
    'requestState from one tool is refused on another tool with -32602',
    `${MRTR}#server-requirements-basic-workflow`,
  ),
  rule(
    'mrtr.missing_response',
    'A retry without a needed input response gets a new input_required, not an error',
    `${MRTR}#error-handling`,
  ),
  rule('mrtr.malformed_response', 'A malformed input response is rejected with -32602', `${MRTR}#error-handling`),
];

export const RULE_IDS = RULES.map((entry) => entry.id);
