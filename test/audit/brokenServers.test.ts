/**
 * `audit` against deliberately broken servers: a raw JSON-RPC stub that is correct by default and
 * breaks exactly one rule per fault. Each failure must be named, and nothing else may fail.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { runAudit } from '../../src/audit/runAudit.js';
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
  ])('%s fails exactly %j', async (fault, expected) => {
    const report = await auditStub([fault]);
    expect(failing(report)).toEqual(expected);
    expect(report.summary.fail).toBe(expected.length);
    for (const rule of report.rules.filter((entry) => entry.status === 'fail')) {
      expect(rule.detail.length).toBeGreaterThan(0);
      expect(rule.spec).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\/2026-07-28\//);
    }
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
