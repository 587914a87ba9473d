/**
 * `audit` against this project's own server: in-process over HTTP (the front's fetch), as a real
 * `serve --stdio` process through the built CLI, and over a real socket (the HTTP front listening on
 * 127.0.0.1:0 in this process, as `serve --http` wires it; the audit's own HTTP client on the other end).
 * Every rule passes or is not applicable; what it observes matches the checked-in example report.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { runAudit } from '../../src/audit/runAudit.js';
import type { AuditReport } from '../../src/audit/types.js';
import { parseAuditReport } from '../../src/plan/auditReport.js';
import { buildPlan } from '../../src/plan/buildPlan.js';
import { observedRounds } from '../../src/plan/fromAudit.js';
import { loadWorkflowFile } from '../../src/plan/loadWorkflow.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { CLI } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { defaultAllowedHosts } from '../../src/transports/http.js';
import { listenHttp } from '../../src/transports/nodeHttp.js';

const run = promisify(execFile);
const PLANS = fileURLToPath(new URL('../../examples/plans/', import.meta.url));
const TOOL = { name: 'summarize_repo', arguments: {} };
// The other tools listed (ask_repo first) need arguments, so the audit cannot use one to prove the binding.
const ONE_TOOL = 'ask_repo rejects {} arguments, so a refusal would prove nothing';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

function expectClean(report: AuditReport, notApplicable: Record<string, string>): void {
  expect(report.rules.filter((rule) => rule.status === 'fail')).toEqual([]);
  const skipped = Object.fromEntries(
    report.rules.filter((rule) => rule.status === 'not_applicable').map((rule) => [rule.id, rule.detail]),
  );
  expect(skipped).toEqual(notApplicable);
  expect(report.observed.completed).toBe(true);
  expect(report.observed.rounds.map((round) => [round.round, round.inputKey, round.maxTokens])).toEqual([
    [1, 'pick_files', 400],
    [2, 'summary', 1200],
  ]);
  expect(report.observed.requestState?.readable).toBe(false);
}

/** What the plan needs from the rounds; prompt sizes depend on the audited repository. */
const roundShape = (report: AuditReport) => report.observed.rounds.map(({ promptBytes: _bytes, ...rest }) => rest);

describe('audit of our own server', () => {
  it('over HTTP in-process: every rule passes, and the rounds match the checked-in example report', async () => {
    const front = createTestFront({ root: repo.root, model: 'host' });
    try {
      const report = await runAudit({
        target: { transport: 'http', url: 'http://localhost/mcp' },
        fetch: (input, init) => front.fetch(new Request(input, init)),
        tool: TOOL,
        model: createBuiltinModel(),
      });
      expectClean(report, { 'transport.stdout_clean': 'HTTP', 'mrtr.state_tool_bound': ONE_TOOL });
      expect(report.rules.find((rule) => rule.id === 'envelope.missing_capability')?.detail).toBe(
        '-32021 with requiredCapabilities {"sampling":{}}',
      );

      const example = parseAuditReport(await readFile(`${PLANS}summarize-repo.audit.json`, 'utf8'), 'example');
      expect(roundShape(report)).toEqual(roundShape(example));
      const workflow = await loadWorkflowFile(`${PLANS}summarize-repo.yaml`);
      const live = buildPlan(workflow, { rounds: observedRounds(report) }).rounds.rows;
      expect(live).toEqual(buildPlan(workflow, { rounds: observedRounds(example) }).rounds.rows);
    } finally {
      await front.close();
    }
  });

  it('over stdio through the built CLI: exit 0 and a clean --json report', async () => {
    const server = `'${process.execPath}' '${CLI}' serve --stdio --root '${repo.root}' --model host --quiet`;
    const { stdout } = await run(process.execPath, [
      CLI,
      'audit',
      '--stdio',
      server,
      '--tool',
      'summarize_repo',
      '--json',
    ]);
    const report = JSON.parse(stdout) as AuditReport;
    expectClean(report, { 'transport.no_sessions': 'stdio has no session header', 'mrtr.state_tool_bound': ONE_TOOL });
    expect(report.rules.find((rule) => rule.id === 'interop.official_client')?.status).toBe('pass');
    expect(report.target).toEqual({ transport: 'stdio', command: server });
  });

  it('over a real socket (the HTTP front on 127.0.0.1:0), with and without a tool', async () => {
    const server = await listenHttp(
      (port) => {
        const allowedHosts = defaultAllowedHosts('127.0.0.1', port);
        return createTestFront({ root: repo.root, model: 'host', front: { allowedHosts } });
      },
      '127.0.0.1',
      0,
    );
    try {
      const url = `${server.origin}/mcp`;
      const withTool = await runAudit({ target: { transport: 'http', url }, tool: TOOL, model: createBuiltinModel() });
      expectClean(withTool, { 'transport.stdout_clean': 'HTTP', 'mrtr.state_tool_bound': ONE_TOOL });
      const bare = await runAudit({ target: { transport: 'http', url }, interop: false });
      expect(bare.summary.fail).toBe(0);
      expect(bare.rules.find((rule) => rule.id === 'mrtr.state_tampered')).toMatchObject({
        status: 'not_applicable',
        detail: 'no --tool given',
      });
    } finally {
      await server.close();
    }
  });
});
