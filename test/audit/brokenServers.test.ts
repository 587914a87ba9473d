/**
 * `audit` against deliberately broken servers: a raw JSON-RPC stub that is correct by default and
 * breaks exactly one rule per fault. Each failure must be named, and nothing else may fail.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { MAX_RESPONSE_BYTES, type FetchLike } from '../../src/audit/httpChannel.js';
import { runAudit } from '../../src/audit/runAudit.js';
import { ToolArgumentsRejectedError } from '../../src/audit/toolArgumentsRejectedError.js';
import type { AuditReport } from '../../src/audit/types.js';
import { CLI } from '../helpers/rawChannel.js';
import { stubFetch, type Fault } from './stubServer.js';

const run = promisify(execFile);
const STUB = fileURLToPath(new URL('./stubStdio.ts', import.meta.url));
const TOOL = { name: 'echo_upper', arguments: { text: 'hello' } };
const failing = (report: AuditReport) => report.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id);

function auditStub(faults: Fault[], interop = false): Promise<AuditReport> {
  return runAudit({
    target: { transport: 'http', url: 'http://stub.test/mcp' },
    fetch: stubFetch(faults),
    tool: TOOL,
    interop,
    timeoutMs: 5000,
  });
}

describe('audit over HTTP against the stub', () => {
  it('passes the correct stub, including the cross-tool state check', async () => {
    const report = await auditStub([], true);
    expect(failing(report)).toEqual([]);
    expect(report.rules.find((rule) => rule.id === 'mrtr.state_tool_bound')).toMatchObject({
      status: 'pass',
      detail: "echo_upper's state on ping_tool: -32602",
    });
    expect(report.rules.filter((rule) => rule.status === 'not_applicable').map((rule) => rule.id)).toEqual([
      'transport.stdout_clean',
    ]);
    expect(report.observed.rounds.map((round) => round.inputKey)).toEqual(['draft', 'polish']);
    expect(report.observed.requestState?.readable).toBe(true);
  });

  it.each<[Fault, string[]]>([
    ['wrong_error_codes', ['envelope.invalid_params', 'envelope.unsupported_version']],
    ['no_cache_hints', ['discover.cache_hints', 'tools_list.cache_hints']],
    ['input_required_from_list', ['input_required.allowed_methods']],
    ['include_context_all_servers', ['mrtr.include_context']],
    ['state_not_verified', ['mrtr.state_tampered']],
    ['state_not_bound_to_arguments', ['mrtr.state_arguments_bound']],
    ['state_shared_across_tools', ['mrtr.state_tool_bound']],
    ['nondeterministic_list', ['tools_list.deterministic']],
    ['answers_notifications', ['notifications.unanswered']],
    ['unknown_method_wrong_code', ['methods.unknown']],
    ['no_capability_check', ['envelope.missing_capability', 'mrtr.declared_capabilities_only']],
    ['live_sampling', ['transport.no_server_requests']],
    ['session_header', ['transport.no_sessions']],
    ['no_server_info', ['result.server_info']],
    ['cache_hints_on_input_required', ['mrtr.input_required_shape']],
    ['missing_response_error', ['mrtr.missing_response']],
    ['malformed_response_accepted', ['mrtr.malformed_response']],
    ['unbounded_rounds', ['mrtr.fresh_ids_accepted']],
    ['no_max_tokens', ['mrtr.sampling_params']],
    ['empty_messages', ['mrtr.sampling_params']],
    [
      'error_status_200',
      ['envelope.invalid_params', 'envelope.unsupported_version', 'envelope.missing_capability', 'methods.unknown'],
    ],
    ['missing_capability_without_data', ['envelope.missing_capability']],
    ['unsupported_version_extra_data', ['envelope.unsupported_version']],
    ['discover_without_version', ['discover.result']],
    ['discover_without_capabilities', ['discover.result']],
    ['bad_tool_descriptors', ['tools_list.result']],
  ])('%s fails exactly %j', async (fault, expected) => {
    const report = await auditStub([fault]);
    expect(failing(report)).toEqual(expected);
    expect(report.summary.fail).toBe(expected.length);
    for (const rule of report.rules.filter((entry) => entry.status === 'fail')) {
      expect(rule.detail.length).toBeGreaterThan(0);
      expect(rule.spec).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/2026-07-28\//);
    }
  });

  it('checks the HTTP status of each error, and the exact data of -32021 and -32022', async () => {
    const detail = async (fault: Fault, id: string) =>
      (await auditStub([fault])).rules.find((rule) => rule.id === id)?.detail;
    expect(await detail('error_status_200', 'envelope.invalid_params')).toContain('no params: HTTP 200 instead of 400');
    expect(await detail('error_status_200', 'envelope.unsupported_version')).toBe('HTTP 200 instead of 400');
    expect(await detail('error_status_200', 'envelope.missing_capability')).toBe('-32021 with HTTP 200 instead of 400');
    expect(await detail('error_status_200', 'methods.unknown')).toBe('HTTP 200 instead of 404');
    expect(await detail('missing_capability_without_data', 'envelope.missing_capability')).toBe(
      '-32021 without data.requiredCapabilities: null',
    );
    expect(await detail('unsupported_version_extra_data', 'envelope.unsupported_version')).toMatch(
      /^data is .*"hint":"use 2026-07-28"\}, expected exactly \{supported, requested\}$/,
    );
    expect(await detail('bad_tool_descriptors', 'tools_list.result')).toBe(
      'tools[2] has no name; array_tool: inputSchema is not an object schema',
    );
    expect(await detail('empty_messages', 'mrtr.sampling_params')).toBe(
      'round 1: draft has no messages; round 2: polish has no messages',
    );
  });

  describe('mrtr.state_arguments_bound', () => {
    const bound = async (faults: Fault[]) =>
      (await auditStub(faults)).rules.find((rule) => rule.id === 'mrtr.state_arguments_bound');

    it('changes an enum argument to another member, and passes a server that binds state', async () => {
      const report = await auditStub(['enum_argument']);
      expect(failing(report)).toEqual([]);
      expect(report.rules.find((rule) => rule.id === 'mrtr.state_arguments_bound')).toMatchObject({
        status: 'pass',
        detail: 'the state under {"text":"world"}: -32602',
      });
    });

    it('fails a server that does not bind state to arguments, even when it validates an enum argument', async () => {
      expect(failing(await auditStub(['enum_argument', 'state_not_bound_to_arguments']))).toEqual([
        'mrtr.state_arguments_bound',
      ]);
      expect(await bound(['enum_argument', 'state_not_bound_to_arguments'])).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/^the state under \{"text":"world"\} was accepted/),
      });
    });

    it('is not applicable when the tool rejects the changed arguments on their own', async () => {
      expect(await bound(['strict_arguments', 'state_not_bound_to_arguments'])).toEqual(
        expect.objectContaining({
          status: 'not_applicable',
          detail:
            'echo_upper rejects the changed arguments {"text":"hello-changed"} on their own (error -32602 ' +
            '"text must be hello" (HTTP 400)), so a refusal would prove nothing',
        }),
      );
    });
  });

  describe('notifications.unanswered over HTTP', () => {
    /** The stub, except that notifications get `reply` instead of a 202. */
    const refusing =
      (reply: () => Response): FetchLike =>
      async (input, init) => {
        const request = new Request(input, init);
        const body = (await request.clone().json()) as Record<string, unknown>;
        return body['id'] === undefined ? reply() : stubFetch([])(request);
      };
    const notifications = async (reply: () => Response) => {
      const report = await runAudit({
        target: { transport: 'http', url: 'http://stub.test/mcp' },
        fetch: refusing(reply),
        interop: false,
      });
      return report.rules.find((rule) => rule.id === 'notifications.unanswered');
    };
    const error = { code: -32601, message: 'unknown notification' };

    it('passes a 4xx refusal with an empty body or an id-less error body, as the spec allows', async () => {
      expect(await notifications(() => Response.json({ jsonrpc: '2.0', error }, { status: 400 }))).toMatchObject({
        status: 'pass',
        detail: 'no JSON-RPC response (refused with HTTP 400)',
      });
      expect(await notifications(() => new Response(null, { status: 404 }))).toMatchObject({ status: 'pass' });
      expect(
        await notifications(() => Response.json({ jsonrpc: '2.0', id: null, error }, { status: 400 })),
      ).toMatchObject({ status: 'pass' });
    });

    it('fails a JSON-RPC response: on a 200, on a 202, or a 4xx whose error carries an id', async () => {
      expect(await notifications(() => Response.json({ jsonrpc: '2.0', error }, { status: 200 }))).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining(
          'notifications/cancelled: HTTP 200 with 74 body bytes, expected 202 or a 4xx refusal',
        ),
      });
      expect(await notifications(() => Response.json({ jsonrpc: '2.0', error }, { status: 202 }))).toMatchObject({
        status: 'fail',
      });
      expect(await notifications(() => Response.json({ jsonrpc: '2.0', id: 7, error }, { status: 400 }))).toMatchObject(
        { status: 'fail', detail: expect.stringContaining('not a JSON-RPC error without an id') },
      );
      expect(await notifications(() => new Response(null, { status: 500 }))).toMatchObject({ status: 'fail' });
    });
  });

  it('caps what it reads of a response body', async () => {
    const huge: FetchLike = async (input, init) => {
      const request = new Request(input, init);
      const body = (await request.clone().json()) as Record<string, unknown>;
      if (body['method'] !== 'server/discover') return stubFetch([])(request);
      const chunk = new Uint8Array(1024 * 1024).fill(0x20);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 64) controller.enqueue(chunk);
          else controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'application/json' } });
    };
    const report = await runAudit({
      target: { transport: 'http', url: 'http://stub.test/mcp' },
      fetch: huge,
      interop: false,
    });
    expect(report.rules.find((rule) => rule.id === 'discover.result')?.detail).toBe(
      `server/discover answered HTTP 200: response body is larger than ${MAX_RESPONSE_BYTES} bytes`,
    );
  });

  it('rejects arguments the tool refuses as bad input to the audit, not as rule failures', async () => {
    const audit = runAudit({
      target: { transport: 'http', url: 'http://stub.test/mcp' },
      fetch: stubFetch(['enum_argument']),
      tool: { name: 'echo_upper', arguments: { text: 'nope' } },
      interop: false,
    });
    await expect(audit).rejects.toBeInstanceOf(ToolArgumentsRejectedError);
    await expect(audit).rejects.toMatchObject({
      code: 'usage',
      message: 'echo_upper rejects the arguments {"text":"nope"}: -32602 "text must be hello or world"',
    });
  });

  it('fails tool.listed for a tool the server does not list, and skips the tool rules', async () => {
    const report = await runAudit({
      target: { transport: 'http', url: 'http://stub.test/mcp' },
      fetch: stubFetch([]),
      tool: { name: 'no_such_tool', arguments: {} },
      interop: false,
    });
    expect(failing(report)).toEqual(['tool.listed']);
    expect(report.rules.find((rule) => rule.id === 'mrtr.state_tampered')).toMatchObject({
      status: 'not_applicable',
      detail: 'no_such_tool is not listed',
    });
  });

  it('sends the 2026-07-28 headers and any --header on every probe request', async () => {
    const stub = stubFetch([]);
    const seen: Headers[] = [];
    await runAudit({
      target: { transport: 'http', url: 'http://stub.test/mcp' },
      fetch: (input, init) => {
        seen.push(new Request(input, init).headers);
        return stub(input, init);
      },
      headers: { authorization: 'Bearer test-token-123456' },
      tool: TOOL,
      interop: false,
    });
    expect(seen.length).toBeGreaterThan(20);
    for (const headers of seen) {
      expect(headers.get('authorization')).toBe('Bearer test-token-123456');
      expect(headers.get('accept')).toBe('application/json, text/event-stream');
      expect(headers.get('mcp-method')).not.toBeNull();
    }
    expect(seen.some((headers) => headers.get('mcp-name') === 'echo_upper')).toBe(true);
    expect(seen.some((headers) => headers.get('mcp-protocol-version') === '2099-01-01')).toBe(true);
  });

  it('explains what it saw in the failure details', async () => {
    const detail = async (fault: Fault, id: string) =>
      (await auditStub([fault])).rules.find((rule) => rule.id === id)?.detail;
    expect(await detail('wrong_error_codes', 'envelope.unsupported_version')).toContain('error -32000');
    expect(await detail('include_context_all_servers', 'mrtr.include_context')).toBe(
      'round 1: draft sends includeContext "allServers"; round 2: polish sends includeContext "allServers"',
    );
    expect(await detail('state_not_verified', 'mrtr.state_tampered')).toMatch(/^a tampered requestState was accepted/);
    expect(await detail('live_sampling', 'transport.no_server_requests')).toBe(
      'the server sent sampling/createMessage as live request(s)',
    );
  });

  it('fails every rule it can reach when nothing answers, without hanging', async () => {
    const report = await runAudit({
      target: { transport: 'http', url: 'http://127.0.0.1:9/mcp' },
      tool: TOOL,
      interop: false,
      timeoutMs: 2000,
    });
    expect(report.rules.find((rule) => rule.id === 'discover.result')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('HTTP request failed'),
    });
    expect(report.summary.pass).toBe(0);
  });
});

describe('audit over stdio against the stub (real processes, the built CLI)', () => {
  it('names stdio-only failures and exits 1', async () => {
    const faults = 'stdout_noise,answers_notifications,live_sampling';
    const command = `'${process.execPath}' --import tsx '${STUB}' ${faults}`;
    const failure: { code?: number; stdout: string } = await run(process.execPath, [
      CLI,
      'audit',
      '--stdio',
      command,
      '--tool',
      'echo_upper',
      '--args',
      '{"text":"hello"}',
      '--no-interop',
      '--json',
    ]).catch((error: unknown) => error as { code: number; stdout: string });
    expect(failure.code).toBe(1);
    const report = JSON.parse(failure.stdout) as AuditReport;
    expect(failing(report)).toEqual([
      'notifications.unanswered',
      'transport.no_server_requests',
      'transport.stdout_clean',
    ]);
    expect(report.rules.find((rule) => rule.id === 'transport.stdout_clean')?.detail).toBe(
      'non-JSON-RPC output on stdout: "stub server ready"',
    );
  });

  it('reports a server that exits at once instead of waiting on it', async () => {
    const report = await runAudit({
      target: { transport: 'stdio', command: `'${process.execPath}' -e 'process.exit(3)'` },
      interop: false,
      timeoutMs: 5000,
    });
    expect(report.rules.find((rule) => rule.id === 'discover.result')?.detail).toMatch(
      /the server process exited \(code 3\)|no response/,
    );
    expect(report.summary.pass).toBe(0);
  });
});

describe('a header mismatch refused with -32020', () => {
  it('passes envelope.invalid_params over HTTP: the header names 2026-07-28, the body a number', async () => {
    const stub = stubFetch([]);
    const headerChecking: FetchLike = async (input, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, any>;
      const version = body['params']?.['_meta']?.['io.modelcontextprotocol/protocolVersion'];
      if (typeof version === 'number') {
        const error = { code: -32020, message: 'MCP-Protocol-Version header does not match the body' };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: body['id'], error }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      }
      return stub(input, init);
    };
    const report = await runAudit({
      target: { transport: 'http', url: 'http://stub.test/mcp' },
      fetch: headerChecking,
      interop: false,
      timeoutMs: 5000,
    });
    expect(report.rules.find((rule) => rule.id === 'envelope.invalid_params')).toMatchObject({ status: 'pass' });
    expect(failing(report)).toEqual([]);
  });
});
