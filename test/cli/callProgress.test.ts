/**
 * `call` shows a task's state and the server's progress while the call runs: in a real terminal (util-linux
 * `script`) one spinner line redrawn in place, erased before the approval dialog and never drawn inside it, the
 * server's text with its escapes removed; piped (in process), plain lines. The server (test/fixtures/host/
 * progressTaskServer.mjs) waits for files the test creates, so each state is on screen until the test moves on.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../src/cli/main.js';
import { capturedIo } from '../helpers/cliIo.js';
import { ENTER, spawnPty, type PtyProcess } from '../helpers/pty.js';
import { chatCompletion, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = 'test/fixtures/host/progressTaskServer.mjs';
const QUESTION = 'Let this server use your model for this round?';
// eslint-disable-next-line no-control-regex -- the test looks for the terminal's erase sequence
const SPINNER = /\r\u001b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /g;
// eslint-disable-next-line no-control-regex -- the test looks for control characters
const CONTROLS = /[\r\u001b]/;

let provider: FakeProvider;
let dir: string;
let running: PtyProcess | undefined;
beforeAll(async () => {
  provider = await startFakeProvider('openai', () => ({ body: chatCompletion({ text: 'README.md' }) }));
  dir = await mkdtemp(join(tmpdir(), 'call-progress-'));
});
afterEach(() => {
  running?.kill();
  running = undefined;
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

async function workDir(name: string): Promise<string> {
  const work = join(dir, name);
  await mkdir(join(work, 'config'), { recursive: true });
  return work;
}

function env(work: string): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: provider.baseUrl,
    MCP_MODEL_INPUT_CONFIG_DIR: join(work, 'config'),
  };
}

function callArgs(work: string, ...extra: string[]): string[] {
  return ['call', 'two_steps', '--stdio', `node ${SERVER} ${work}`, '--host-model', 'openai:fake-gpt', ...extra];
}

describe('call: progress on a terminal', () => {
  it('redraws one spinner line in place, erases it before the dialog and draws nothing inside it', async () => {
    const work = await workDir('pty');
    const pty = spawnPty(process.execPath, ['dist/cli.js', ...callArgs(work)], { cwd: ROOT, env: env(work) });
    running = pty;
    await pty.waitFor('task working: step one RED', 30_000);
    // A redraw of the same line: the spinner turns, in place.
    await pty.waitFor('task working: step one RED', 30_000);
    const first = pty.raw();
    expect(first).toMatch(new RegExp(`${SPINNER.source}task working: step one RED \\(\\d+ s\\)`));
    // The server's escape reached no terminal: its text was made safe first.
    expect(first).not.toContain('\u001b[31m');

    await writeFile(join(work, 'go1'), '');
    await pty.waitFor(QUESTION, 30_000);
    await pty.waitFor('Deny');
    // Time for the spinner to tick, were it still drawing (its interval is 100 ms).
    await sleep(500);
    const atDialog = pty.raw();
    const opened = atDialog.indexOf(QUESTION);
    const before = atDialog.slice(0, opened);
    const lastSpin = Math.max(...[...before.matchAll(SPINNER)].map((match) => match.index));
    // After the last spinner frame, the line was erased before the dialog drew.
    expect(before.slice(lastSpin + 1)).toContain('\r\u001b[2K');
    expect(atDialog.slice(opened).match(SPINNER)).toBeNull();

    pty.write(ENTER);
    await pty.waitFor('step two', 30_000);
    await writeFile(join(work, 'go2'), '');
    expect(await pty.exit).toBe(0);
    expect(pty.output()).toContain('done: README.md');
  });
});

/** Runs `main(argv)` in process; `steps` is called with what stderr holds until it returns true. */
async function runWhile(argv: string[], work: string, step: (stderr: string) => Promise<void>) {
  const io = capturedIo(env(work));
  let finished = false;
  const exit = main(argv, io).finally(() => {
    finished = true;
  });
  for (let i = 0; i < 3000 && !finished; i++) {
    await step(io.err());
    await sleep(20);
  }
  return { code: await exit, stderr: io.err(), stdout: io.out() };
}

/** Creates `go1` once stderr shows `first`, and `go2` once it shows `second`. */
function releaseOn(work: string, first: string, second: string) {
  return async (stderr: string) => {
    if (stderr.includes(first)) await writeFile(join(work, 'go1'), '');
    if (stderr.includes(second)) await writeFile(join(work, 'go2'), '');
  };
}

describe('call: progress when stderr is not a terminal', () => {
  it("writes a plain line for each of a task's states, the server's text made safe", async () => {
    const work = await workDir('plain-task');
    const run = await runWhile(
      callArgs(work, '--approve', 'auto'),
      work,
      releaseOn(work, 'task working: step one', 'task working: step two'),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done: README.md');
    const lines = run.stderr.split('\n');
    expect(lines).toContain('mcp-model-input: task working: step one RED');
    expect(lines).toContain('mcp-model-input: task working: step two');
    expect(lines.some((line) => line.startsWith('mcp-model-input: task input_required'))).toBe(true);
    // No spinner, no carriage return, no escape: lines a log keeps.
    expect(run.stderr).not.toMatch(CONTROLS);
    expect(run.stderr).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });

  it('writes the progress notifications of a call made without tasks', async () => {
    const work = await workDir('plain-progress');
    const run = await runWhile(
      callArgs(work, '--approve', 'auto', '--no-tasks'),
      work,
      releaseOn(work, 'step one RED (1/2)', 'step two (2/2)'),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done: README.md');
    const lines = run.stderr.split('\n');
    expect(lines).toContain('mcp-model-input: step one RED (1/2)');
    expect(lines).toContain('mcp-model-input: step two (2/2)');
    expect(run.stderr).not.toContain('task working');
    expect(run.stderr).not.toMatch(CONTROLS);
  });
});
