/**
 * A raw JSON-RPC MCP server for the audit tests: correct by default (two tools; `echo_upper` runs two
 * HMAC-sealed MRTR rounds), with faults that each break one rule (a few break two: brokenServers.test.ts lists them).
 * `enum_argument` and `strict_arguments` are not faults but argument validation the audit must cope
 * with. Served in-process over HTTP (`stubFetch`) and as a real process on stdio (stubStdio.ts).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const FAULTS = [
  'wrong_error_codes',
  'no_cache_hints',
  'input_required_from_list',
  'include_context_all_servers',
  'state_not_verified',
  'state_not_bound_to_arguments',
  'state_shared_across_tools',
  'nondeterministic_list',
  'answers_notifications',
  'unknown_method_wrong_code',
  'no_capability_check',
  'live_sampling',
  'session_header',
  'no_server_info',
  'cache_hints_on_input_required',
  'missing_response_error',
  'malformed_response_accepted',
  'stdout_noise',
  'unbounded_rounds',
  'no_max_tokens',
  'empty_messages',
  'error_status_200',
  'missing_capability_without_data',
  'unsupported_version_extra_data',
  'discover_without_version',
  'discover_without_capabilities',
  'bad_tool_descriptors',
  'enum_argument',
  'strict_arguments',
] as const;
export type Fault = (typeof FAULTS)[number];

type Message = Record<string, any>;
export interface StubReply {
  message?: Message;
  /** Server-to-client requests sent before the reply (the `live_sampling` fault). */
  before?: Message[];
}

const VERSION = '2026-07-28';
const ENUM: unknown[] = ['hello', 'world'];
const KEY = Buffer.from('stub-server-key-for-tests-only');
const isObject = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const digest = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(value ?? {}))
    .digest('base64url');
const mac = (payload: string) => createHmac('sha256', KEY).update(payload).digest('base64url');

export function createStub(faults: readonly Fault[]): (message: Message) => StubReply {
  const has = (fault: Fault) => faults.includes(fault);
  let listCalls = 0;
  const meta = has('no_server_info')
    ? {}
    : { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'stub', version: '1.0.0' } } };
  const cache = (on: boolean) => (on ? { ttlMs: 60_000, cacheScope: 'public' } : {});
  const result = (id: unknown, body: Message, cached = false) => ({
    message: {
      jsonrpc: '2.0',
      id,
      result: { resultType: 'complete', ...body, ...cache(cached && !has('no_cache_hints')), ...meta },
    },
  });
  const error = (id: unknown, code: number, text: string, data?: unknown) => ({
    message: { jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined && { data }) } },
  });
  const seal = (payload: Message) => {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${mac(body)}`;
  };
  const open = (state: unknown): Message | undefined => {
    if (typeof state !== 'string') return undefined;
    const [body = '', tag = ''] = state.split('.');
    const expected = Buffer.from(mac(body));
    if (
      !has('state_not_verified') &&
      (tag.length !== expected.length || !timingSafeEqual(Buffer.from(tag), expected))
    ) {
      return undefined;
    }
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString()) as Message;
    } catch {
      return undefined;
    }
  };
  const ask = (id: unknown, key: string, args: unknown, round: number): StubReply => ({
    ...(has('live_sampling') &&
      round === 1 && {
        before: [
          { jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } },
        ],
      }),
    message: {
      jsonrpc: '2.0',
      id,
      result: {
        resultType: 'input_required',
        inputRequests: {
          [key]: {
            method: 'sampling/createMessage',
            params: {
              messages: has('empty_messages')
                ? []
                : [{ role: 'user', content: { type: 'text', text: `Write the ${key}.` } }],
              ...(!has('no_max_tokens') && { maxTokens: 100 }),
              ...(has('include_context_all_servers') && { includeContext: 'allServers' }),
            },
          },
        },
        requestState: seal({ tool: 'echo_upper', args: digest(args), phase: key, round }),
        ...cache(has('cache_hints_on_input_required')),
        ...meta,
      },
    },
  });
  const validAnswer = (answer: unknown) =>
    isObject(answer) &&
    answer['role'] === 'assistant' &&
    isObject(answer['content']) &&
    typeof answer['model'] === 'string';

  function echoUpper(id: unknown, params: Message, capabilities: Message): StubReply {
    const args = params['arguments'] ?? {};
    if (!('sampling' in capabilities) && !has('no_capability_check')) {
      return has('missing_capability_without_data')
        ? error(id, -32021, 'sampling required')
        : error(id, -32021, 'sampling required', { requiredCapabilities: { sampling: {} } });
    }
    const text = isObject(args) ? args['text'] : undefined;
    if (has('enum_argument') && !ENUM.includes(text)) return error(id, -32602, 'text must be hello or world');
    if (has('strict_arguments') && text !== 'hello') return error(id, -32602, 'text must be hello');
    if (params['requestState'] === undefined) return ask(id, 'draft', args, 1);
    const state = open(params['requestState']);
    if (state === undefined || state['tool'] !== 'echo_upper') return error(id, -32602, 'Invalid requestState');
    if (!has('state_not_bound_to_arguments') && state['args'] !== digest(args))
      return error(id, -32602, 'Invalid requestState');
    const phase = String(state['phase']);
    const answer = isObject(params['inputResponses']) ? params['inputResponses'][phase] : undefined;
    if (answer === undefined) {
      return has('missing_response_error')
        ? error(id, -32602, 'missing answer')
        : ask(id, phase, args, state['round'] + 1);
    }
    if (!validAnswer(answer) && !has('malformed_response_accepted')) return error(id, -32602, `bad ${phase}`);
    if (phase === 'draft' || has('unbounded_rounds')) return ask(id, 'polish', args, state['round'] + 1);
    return result(id, { content: [{ type: 'text', text: String(answer['content']?.['text'] ?? '').toUpperCase() }] });
  }

  function ping(id: unknown, params: Message): StubReply {
    if (params['requestState'] !== undefined && !has('state_shared_across_tools')) {
      const state = open(params['requestState']);
      if (state === undefined || state['tool'] !== 'ping_tool') return error(id, -32602, 'Invalid requestState');
    }
    return result(id, { content: [{ type: 'text', text: 'pong' }] });
  }

  return (message) => {
    const id = message['id'];
    if (id === undefined) return has('answers_notifications') ? error(null, -32601, 'no such notification') : {};
    const params = isObject(message['params']) ? message['params'] : {};
    const envelope = params['_meta'];
    const version = isObject(envelope) ? envelope['io.modelcontextprotocol/protocolVersion'] : undefined;
    const capabilities = isObject(envelope) ? envelope['io.modelcontextprotocol/clientCapabilities'] : undefined;
    const invalid = has('wrong_error_codes') ? -32600 : -32602;
    if (typeof version !== 'string') return error(id, invalid, 'Invalid params');
    if (version !== VERSION) {
      return has('wrong_error_codes')
        ? error(id, -32000, 'Unsupported version')
        : error(id, -32022, 'Unsupported version', {
            supported: [VERSION],
            requested: version,
            ...(has('unsupported_version_extra_data') && { hint: 'use 2026-07-28' }),
          });
    }
    if (!isObject(capabilities)) return error(id, invalid, 'Invalid params');
    switch (message['method']) {
      case 'server/discover':
        return result(
          id,
          {
            supportedVersions: has('discover_without_version') ? ['2025-11-25'] : [VERSION],
            ...(!has('discover_without_capabilities') && { capabilities: { tools: {} } }),
          },
          true,
        );
      case 'tools/list': {
        if (has('input_required_from_list') && 'sampling' in capabilities) return ask(id, 'draft', {}, 1);
        const text = { type: 'string', ...(has('enum_argument') && { enum: ENUM }) };
        const tools: Message[] = [
          { name: 'echo_upper', inputSchema: { type: 'object', properties: { text } } },
          { name: 'ping_tool', inputSchema: { type: 'object', properties: {} } },
          ...(has('bad_tool_descriptors')
            ? [{ inputSchema: { type: 'object' } }, { name: 'array_tool', inputSchema: { type: 'array' } }]
            : []),
        ];
        if (has('nondeterministic_list') && listCalls++ % 2 === 1) tools.reverse();
        return result(id, { tools }, true);
      }
      case 'tools/call':
        if (params['name'] === 'echo_upper') return echoUpper(id, params, capabilities);
        if (params['name'] === 'ping_tool') return ping(id, params);
        return error(id, -32602, 'Unknown tool');
      default:
        return error(id, has('unknown_method_wrong_code') ? -32603 : -32601, 'Method not found');
    }
  };
}

/** The stub as an in-process Streamable HTTP endpoint. */
export function stubFetch(
  faults: readonly Fault[],
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const handle = createStub(faults);
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const incoming = (await request.json()) as Message;
    const reply = handle(incoming);
    const headers: Record<string, string> = has(faults, 'session_header') ? { 'mcp-session-id': 'stub-session-1' } : {};
    if (reply.message === undefined) return new Response(null, { status: 202, headers });
    const code = reply.message['error']?.code as number | undefined;
    // A notification that gets an answer gets it as a normal response (200), which the spec forbids.
    const answered = incoming['id'] === undefined || has(faults, 'error_status_200');
    const status = code === undefined || answered ? 200 : code === -32601 ? 404 : 400;
    if (reply.before !== undefined) {
      const events = [...reply.before, reply.message]
        .map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`)
        .join('');
      return new Response(events, { status, headers: { ...headers, 'content-type': 'text/event-stream' } });
    }
    return Response.json(reply.message, { status, headers });
  };
}

function has(faults: readonly Fault[], fault: Fault): boolean {
  return faults.includes(fault);
}
