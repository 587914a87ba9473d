/**
 * `audit` against a server that speaks only 2025-11-25 (the official TypeScript SDK v1): it names the era first,
 * reports one finding instead of failing every 2026-07-28 rule for the same reason, and still checks what applies
 * in the 2025-11-25 session. Over HTTP in-process (the SDK's web-standard transport) and on stdio (a real process).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';

import { renderAuditText } from '../../src/audit/renderReport.js';
import { runAudit } from '../../src/audit/runAudit.js';
import type { AuditReport } from '../../src/audit/types.js';

const SERVER = fileURLToPath(new URL('../fixtures/legacyOnlyServer.mjs', import.meta.url));
const FINDING = 'speaks only 2025-11-25: the 2026-07-28 checks do not apply';

function expectOneFinding(report: AuditReport, applicable: string[]): void {
  expect(report.negotiated).toBe('2025-11-25');
  expect(report.rules[0]).toMatchObject({ id: 'protocol.revision', status: 'fail', detail: FINDING });
  expect(report.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id)).toEqual(['protocol.revision']);
  expect(report.rules.filter((rule) => rule.status === 'pass').map((rule) => rule.id)).toEqual(applicable);
  for (const rule of report.rules.filter((rule) => rule.status === 'not_applicable')) {
    expect(rule.detail).toMatch(
      /speaks only 2025-11-25|HTTP|stdio has no session header|no result was received|none seen/,
    );
  }
  expect(report.observed.tools).toEqual(['echo']);
  const text = renderAuditText(report).split('\n');
  expect(text[1]).toBe(`negotiated era: 2025-11-25 — ${FINDING}`);
  expect(text.at(-2)).toBe(
    `${applicable.length} pass, 1 fail, ${report.rules.length - applicable.length - 1} not applicable`,
  );
}

describe('audit of a server that speaks only 2025-11-25', () => {
  it('over HTTP: one finding, then tools/list and an unknown method in its session', async () => {
    const server = new McpServer({ name: 'legacy-only', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes its input.' }, async () => ({
      content: [{ type: 'text', text: 'echo' }],
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const report = await runAudit({
        target: { transport: 'http', url: 'http://legacy.test/mcp' },
        fetch: (input, init) => transport.handleRequest(new Request(input, init)),
        tool: { name: 'echo', arguments: {} },
        interop: false,
        timeoutMs: 5000,
      });
      expectOneFinding(report, ['tools_list.result', 'methods.unknown']);
    } finally {
      await server.close();
    }
  });

  it('on stdio: the same, and stdout hygiene too', async () => {
    const report = await runAudit({
      target: { transport: 'stdio', command: `'${process.execPath}' '${SERVER}'` },
      interop: false,
      timeoutMs: 5000,
    });
    expectOneFinding(report, ['tools_list.result', 'methods.unknown', 'transport.stdout_clean']);
  });
});
