/**
 * `call` and `discover` as a user runs them: exit codes, messages and the audit file against hostile servers
 * on 127.0.0.1, against our own server over stdio (a `serve --stdio` child process of the command) and over
 * HTTP (in this process, on a real 127.0.0.1 socket).
 * The commands run in-process (`main(argv, io)`); end to end on the built `dist/cli.js`, through a
 * pseudo-terminal or a pipe, stay what needs a real process: the approval dialog on a terminal, the result
 * text on a terminal versus piped, and `discover` printing to a pipe.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli, type CliRun } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import {
  complete,
  inputRequired,
  listenHostileServer,
  rpcError,
  SCENARIOS,
  type Scenario,
} from '../helpers/hostileServers.js';
import { DOWN, ENTER, spawnPty } from '../helpers/pty.js';
import { CLI } from '../helpers/rawChannel.js';
import { createTestFront } from '../helpers/servers.js';
import { defaultAllowedHosts } from '../../src/transports/http.js';
import { listenHttp } from '../../src/transports/nodeHttp.js';

type Run = CliRun;
const cli = runCli;

/** The binary in a child process, its stdio piped. */
function binary(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function callAgainst(scenario: Scenario, args: string[]) {
  const server = await listenHostileServer(scenario);
  try {
    const run = await cli(['call', 'summarize_repo', '--url', server.url, ...args]);
    return { run, server };
  } finally {
    await server.close();
  }
}

let dir: string;
let repo: FixtureRepo;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mmi-call-'));
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

describe('call: exit codes', () => {
  it('0: the round is answered and the result printed', async () => {
    const { run, server } = await callAgainst(SCENARIOS.honest, ['--approve', 'auto', '--args', '{"path":"."}']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('done after ["pick_files"]');
    expect(run.stderr).toContain('round 1: answered pick_files');
    expect(server.calls.map((call) => call.arguments)).toEqual([{ path: '.' }, { path: '.' }]);
  });

  it('--json prints the result, the rounds and the spend', async () => {
    const { run } = await callAgainst(SCENARIOS.honest, ['--approve', 'auto', '--json']);
    const printed = JSON.parse(run.stdout) as { rounds: number; usage: { tokens: number }; result: unknown };
    expect(printed.rounds).toBe(1);
    expect(printed.usage.tokens).toBeGreaterThan(0);
  });

  it('1: the tool answered with an error result', async () => {
    const failing: Scenario = () => ({ ...complete('no such path'), isError: true });
    const { run } = await callAgainst(failing, ['--approve', 'auto']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the tool answered with an error: no such path');
  });

  it('3: denied — no retry, and the reason is said', async () => {
    const { run, server } = await callAgainst(SCENARIOS.honest, ['--approve', 'deny']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('call stopped (approval_denied)');
    expect(run.stderr).toContain('approval mode is deny');
    expect(server.calls).toHaveLength(1);
  });

  it('0 with a rules file allowing it (by the server key), audited as approved_rule', async () => {
    const rules = join(dir, 'allow.yaml');
    const audit = join(dir, 'allow.jsonl');
    const server = await listenHostileServer(SCENARIOS.honest);
    let run: Run;
    try {
      await writeFile(rules, `rules:\n  - server: '${server.url}'\n    key: pick_files\n    decision: allow\n`);
      run = await cli(['call', 'summarize_repo', '--url', server.url, '--approve', `rules:${rules}`, '--audit', audit]);
    } finally {
      await server.close();
    }
    expect(run.code).toBe(0);
    const decisions = (await readFile(audit, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { decision: string }).decision);
    expect(decisions).toEqual(['approved_rule', 'fulfilled']);
  });

  it('3: a rule allowing the server by its self-declared name grants nothing', async () => {
    const rules = join(dir, 'by-name.yaml');
    await writeFile(rules, 'rules:\n  - server: hostile-fixture\n    decision: allow\n');
    const { run, server } = await callAgainst(SCENARIOS.honest, ['--approve', `rules:${rules}`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('rule 1 allows the server by its unverified name');
    expect(server.calls).toHaveLength(1);
  });

  it('3: denied by a rules file ceiling', async () => {
    const rules = join(dir, 'rules.yaml');
    await writeFile(
      rules,
      'rules:\n  - tool: summarize_repo\n    key: pick_files\n    decision: allow\n    maxTokens: 100\n',
    );
    const { run, server } = await callAgainst(SCENARIOS.honest, ['--approve', `rules:${rules}`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('maxTokens 200 is above the ceiling 100');
    expect(server.calls).toHaveLength(1);
  });

  it('4: a policy stop (greedy maxTokens), with the audit line saying why', async () => {
    const audit = join(dir, 'greedy.jsonl');
    const { run } = await callAgainst(SCENARIOS.greedy, ['--approve', 'auto', '--audit', audit]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('call stopped (request_invalid)');
    const lines = (await readFile(audit, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ key: 'pick_files', decision: 'refused', reason: 'request_invalid', round: 1 }),
    ]);
  });

  it('4: the round cap, printing the last result', async () => {
    const { run } = await callAgainst(SCENARIOS.loopBomb, ['--approve', 'auto', '--max-rounds', '2']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('call stopped (rounds_exceeded)');
    expect(run.stderr).toContain('last result: {"inputRequests":{"pick_files":{"method":"sampling/createMessage"}}');
  });

  it('5: nothing listens at the URL', async () => {
    const server = await listenHostileServer(SCENARIOS.honest);
    await server.close();
    const run = await cli(['call', 'summarize_repo', '--url', server.url, '--approve', 'auto']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('(protocol_error)');
  });

  it.each([
    [['call', 'summarize_repo'], 'exactly one of --stdio'],
    [['call', '--url', 'http://127.0.0.1:9/mcp'], 'exactly one TOOL'],
    [['call', 't', '--url', 'http://127.0.0.1:9/mcp', '--args', '[1]'], '--args must be a JSON object'],
    [['call', 't', '--url', 'http://127.0.0.1:9/mcp', '--approve', 'sometimes'], '--approve'],
    [['call', 't', '--url', 'http://127.0.0.1:9/mcp', '--host-model', 'gpt'], "unknown host model 'gpt'"],
    [['call', 't', '--url', 'http://127.0.0.1:9/mcp', '--max-rounds', '0'], '--max-rounds must be an integer'],
    [['call', 't', '--url', 'ftp://x/mcp'], '--url must be http(s)'],
  ])('2: bad usage %j', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});

describe('call: server text never drives the terminal', () => {
  // Clear screen, window title, colour, an 8-bit CSI and a bidi override: none may reach stderr as is.
  const ATTACK = '\x1b[2J\x1b]0;PWNED\x07\x1b[31mRED\x9b2J\u202e';
  const sampleUnder = (key: string) => ({
    [key]: {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 10 },
    },
  });

  function expectClean(text: string): void {
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('\x9b');
    expect(text).not.toContain('\x07');
    expect(text).not.toContain('\u202e');
  }

  it('a JSON-RPC error message (exit 5)', async () => {
    const { run } = await callAgainst(
      () => rpcError(-32000, `boom ${ATTACK} ${'x'.repeat(100_000)}`),
      ['--approve', 'auto'],
    );
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('call stopped (protocol_error)');
    expect(run.stderr).toContain('boom');
    expectClean(run.stderr);
    expect(run.stderr.length).toBeLessThan(5000);
  });

  it('input keys in the progress line and the trace', async () => {
    const key = `k${ATTACK}`;
    const scenario: Scenario = (call) => (call === 1 ? inputRequired(sampleUnder(key), 's') : complete('ok'));
    const { run } = await callAgainst(scenario, ['--approve', 'auto', '--trace']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('round 1: answered k');
    expect(run.stderr).toContain('trace <- id=1');
    expectClean(run.stderr);
  });

  it('input keys in a denial and in the last result of a round-cap stop', async () => {
    const key = `k${ATTACK}`;
    const denied = await callAgainst(() => inputRequired(sampleUnder(key), 's'), ['--approve', 'deny']);
    expect(denied.run.code).toBe(3);
    expectClean(denied.run.stderr);
    const capped = await callAgainst(
      () => inputRequired(sampleUnder(key), 's'),
      ['--approve', 'auto', '--max-rounds', '1'],
    );
    expect(capped.run.code).toBe(4);
    expect(capped.run.stderr).toContain('last result:');
    expectClean(capped.run.stderr);
  });

  it('the text of a tool error result', async () => {
    const { run } = await callAgainst(
      () => ({ ...complete(`failed ${ATTACK}`), isError: true }),
      ['--approve', 'auto'],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the tool answered with an error: failed');
    expectClean(run.stderr);
  });

  it('the result text on a terminal (piped, it is passed on as is)', async () => {
    const server = await listenHostileServer(() => complete(`result ${ATTACK} end`));
    try {
      const pty = spawnPty(process.execPath, [CLI, 'call', 'summarize_repo', '--url', server.url, '--approve', 'auto']);
      try {
        expect(await pty.exit).toBe(0);
        expect(pty.output()).toContain('result ');
        expect(pty.output()).toContain('RED');
        expectClean(pty.raw());
      } finally {
        pty.kill();
      }
      const piped = await binary(['call', 'summarize_repo', '--url', server.url, '--approve', 'auto']);
      expect(piped.stdout).toBe(`result ${ATTACK} end\n`);
    } finally {
      await server.close();
    }
  });
});

describe('help', () => {
  it.each([
    [
      'call',
      [
        '--stdio',
        '--url',
        '--token-env',
        '--args',
        '--host-model',
        '--approve',
        '--max-rounds',
        '--on-deny',
        '--audit',
        '--root',
        '--trace',
        '--json',
      ],
    ],
    ['discover', ['--stdio', '--url', '--token-env', '--json']],
  ])('%s --help names every flag and the exit codes', async (command, flags) => {
    const run = await cli([command, '--help']);
    expect(run.code).toBe(0);
    for (const flag of flags) expect(run.stdout).toContain(flag);
    expect(run.stdout).toContain('Exit status: 0');
  });
});

describe('call and discover against our own server over stdio', () => {
  const serve = () => `"${process.execPath}" "${CLI}" serve --stdio --root "${repo.root}" --model host --quiet`;

  it('discover prints the unverified name, the revision and the tools (the binary, in a child process)', async () => {
    const run = await binary(['discover', '--stdio', serve()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^server: {3}mcp-model-input \S+ \(unverified: the server's own claim\)/);
    expect(run.stdout).toContain('revision: 2026-07-28 (stateless)');
    expect(run.stdout).toContain('summarize_repo');
  });

  it('the approval dialog in a terminal: "approve the rest of this call" covers both rounds', async () => {
    const pty = spawnPty(
      process.execPath,
      [CLI, 'call', 'summarize_repo', '--stdio', serve(), '--args', '{"maxFiles":2}'],
      {
        env: { MCP_MODEL_INPUT_CONFIG_DIR: join(dir, 'pty-config') },
      },
    );
    try {
      await pty.waitFor('Let this server use your model for this round?', 30_000);
      const screen = pty.output();
      expect(screen).toContain('mcp-model-input (unverified)');
      expect(screen).toContain('summarize_repo · round 1');
      expect(screen).toContain('input pick_files');
      pty.write(DOWN);
      pty.write(ENTER);
      await pty.waitFor('round 2: answered summary', 30_000);
      expect(await pty.exit).toBe(0);
      // One dialog for the whole call: round 2 was never shown.
      expect(pty.output()).not.toContain('summarize_repo · round 2');
      expect(pty.output()).toContain('Overview of');
    } finally {
      pty.kill();
    }
  });
});

describe('call against our own server over HTTP', () => {
  it('--on-deny: stop exits 3 on a declined round; fallback calls again without sampling (host,builtin serves it)', async () => {
    const server = await listenHttp(
      (port) => {
        const allowedHosts = defaultAllowedHosts('127.0.0.1', port);
        return createTestFront({ root: repo.root, model: 'host,builtin', front: { allowedHosts } });
      },
      '127.0.0.1',
      0,
    );
    const withFallback = `${server.origin}/mcp`;
    try {
      const stopped = await cli(['call', 'summarize_repo', '--url', withFallback, '--approve', 'deny']);
      expect(stopped.code).toBe(3);
      expect(stopped.stderr).toContain('call stopped (approval_denied)');

      const served = await cli([
        'call',
        'summarize_repo',
        '--url',
        withFallback,
        '--approve',
        'deny',
        '--on-deny',
        'fallback',
        '--json',
      ]);
      expect(served.code).toBe(0);
      expect(served.stderr).toContain('the call was made again without declaring sampling (--on-deny fallback)');
      const outcome = JSON.parse(served.stdout) as {
        rounds: number;
        declined: { how: string };
        result: { structuredContent: { summary: string } };
      };
      expect(outcome.rounds).toBe(0);
      expect(outcome.declined.how).toBe('retried_without_sampling');
      expect(outcome.result.structuredContent.summary).toContain('sample-widget');

      // A usage error, before any server is started: the --stdio command is parsed, never run.
      const serveCommand = `"${process.execPath}" "${CLI}" serve --stdio --root "${repo.root}" --model host,builtin --quiet`;
      const bad = await cli(['call', 'summarize_repo', '--stdio', serveCommand, '--on-deny', 'later']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--on-deny must be stop or fallback');
    } finally {
      await server.close();
    }
  });
});
