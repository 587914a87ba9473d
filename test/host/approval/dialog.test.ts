/**
 * The prompt approver in a real terminal: test/fixtures/host/approvalDialog.mjs runs under a pty
 * (util-linux `script`), reviews a crafted round and prints its decision. Each choice gets its own run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { CTRL_C, DOWN, ENTER, spawnPty, type PtyProcess } from '../../helpers/pty.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURE = 'test/fixtures/host/approvalDialog.mjs';
const QUESTION = 'Let this server use your model for this round?';

let dir: string;
let running: PtyProcess | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'approval-dialog-'));
});
afterEach(() => {
  running?.kill();
  running = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runDialog(configDir: string): PtyProcess {
  running = spawnPty(process.execPath, [FIXTURE], {
    cwd: ROOT,
    env: { MCP_MODEL_INPUT_CONFIG_DIR: configDir },
  });
  return running;
}

async function decisionOf(pty: PtyProcess): Promise<unknown> {
  await pty.waitFor(/DECISION \{.*\}\n/, 15_000);
  expect(await pty.exit).toBe(0);
  return JSON.parse(/DECISION (\{.*\})/.exec(pty.output())?.[1] ?? 'null');
}

describe('approval dialog in a terminal', () => {
  it('shows the round, neutralises the escape attack, and Approve approves', async () => {
    const pty = runDialog(join(dir, 'approve'));
    await pty.waitFor(QUESTION, 20_000);
    await pty.waitFor('Deny');
    const screen = pty.output();
    expect(screen).toContain('Server: repo-helper (unverified)');
    expect(screen).toContain('stdio:node fake-server.js');
    expect(screen).toContain('summarize_repo · round 3');
    expect(screen).toContain('input pick_files');
    expect(screen).toContain('input rank_files');
    expect(screen).toContain('maxTokens: 400');
    expect(screen).toContain('maxTokens: 777');
    expect(screen).toContain('hints claude-haiku · cost 0.8 · speed – · intelligence 0.2');
    expect(screen).toMatch(/… \(\+\d+ chars\)/);
    // The attack reached the terminal as visible text only: no clear screen, title, hyperlink or bidi override.
    const raw = pty.raw();
    expect(raw).not.toContain('\x1b[2J');
    expect(raw).not.toContain('\x1b]');
    expect(raw).not.toContain('\u202E');
    expect(raw).not.toContain('\x1b[31mRED');
    // …and every character of it is on screen, written out, as the model would read it.
    expect(screen).toContain('Rank the files.⟨U+001B⟩[2J⟨U+001B⟩[31mRED');
    expect(screen).toContain('PWNED-TITLE');
    expect(screen).toContain('⚠ HIDDEN TEXT:');
    pty.write(ENTER);
    expect(await decisionOf(pty)).toEqual({ kind: 'approve' });
  });

  it.each([
    ['Approve the rest of this call', [DOWN, ENTER], { kind: 'approve_call' }],
    ['Deny', [DOWN, DOWN, DOWN, DOWN, ENTER], { kind: 'deny', reason: 'denied by the user' }],
    ['Ctrl-C', [CTRL_C], { kind: 'deny', reason: 'dialog cancelled' }],
  ])('%s', async (name, keys, expected) => {
    const configDir = join(dir, name.replace(/\W/g, '-'));
    const pty = runDialog(configDir);
    await pty.waitFor(QUESTION, 20_000);
    await pty.waitFor('Deny');
    for (const key of keys) pty.write(key);
    expect(await decisionOf(pty)).toEqual(expected);
    await expect(readFile(join(configDir, 'approvals.json'))).rejects.toThrow(/ENOENT/);
  });

  it('"Always" is remembered: the next run decides without a dialog', async () => {
    const configDir = join(dir, 'always');
    const first = runDialog(configDir);
    await first.waitFor(QUESTION, 20_000);
    await first.waitFor('Deny');
    first.write(DOWN);
    first.write(DOWN);
    first.write(ENTER);
    expect(await decisionOf(first)).toEqual({ kind: 'always' });
    expect(JSON.parse(await readFile(join(configDir, 'approvals.json'), 'utf8'))).toEqual({
      version: 1,
      always: [{ server: 'stdio:node fake-server.js', tool: 'summarize_repo' }],
    });

    const second = runDialog(configDir);
    expect(await decisionOf(second)).toEqual({ kind: 'always' });
    expect(second.output()).not.toContain(QUESTION);
    expect(second.output()).not.toContain('(unverified)');
  });

  it('without a terminal the approver denies and says how to choose another mode', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE], {
      cwd: ROOT,
      env: { ...process.env, MCP_MODEL_INPUT_CONFIG_DIR: join(dir, 'no-tty') },
      timeout: 20_000,
    });
    expect(stdout).not.toContain(QUESTION);
    expect(JSON.parse(stdout.replace(/^DECISION /, ''))).toEqual({
      kind: 'deny',
      reason: 'no terminal to ask on (use --approve auto, deny or rules:FILE)',
    });
  });
});
