/**
 * `call --elicit`: elicitation is declared in every mode, so a 2025-11-25 server that offers a tool only to clients
 * with elicitation (as the reference "everything" server does) offers it; without a terminal the request is
 * declined by default, or answered from a rules file — a multi-select field included.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../helpers/cliIo.js';

const SERVER = fileURLToPath(new URL('../fixtures/elicitingServer.mjs', import.meta.url));
const COMMAND = `'${process.execPath}' '${SERVER}'`;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mmi-elicit-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('call --elicit against a 2025-11-25 server', () => {
  it('without a terminal: elicitation is declared, the tool is offered, and the request is declined', async () => {
    const { code, stdout } = await runCli(['call', 'pick_colors', '--stdio', COMMAND]);
    expect(code).toBe(0);
    expect(stdout).toContain('ANSWER {"action":"decline"}');
  });

  it('rules:FILE answers the multi-select field', async () => {
    const rules = join(scratch, 'answers.json');
    await writeFile(rules, JSON.stringify({ colors: ['red', 'blue'] }));
    const { code, stdout } = await runCli(['call', 'pick_colors', '--stdio', COMMAND, '--elicit', `rules:${rules}`]);
    expect(code).toBe(0);
    expect(stdout).toContain('ANSWER {"action":"accept","content":{"colors":["red","blue"]}}');
  });

  it('a bad --elicit is a usage error', async () => {
    const { code, stderr } = await runCli(['call', 'pick_colors', '--stdio', COMMAND, '--elicit', 'maybe']);
    expect(code).toBe(2);
    expect(stderr).toContain('--elicit must be prompt, auto-decline or rules:FILE');
  });
});

describe('discover --declare', () => {
  it('says what it declared; declaring elicitation lists the tool offered only to such clients', async () => {
    const bare = await runCli(['discover', '--stdio', COMMAND]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('declared: (none)');
    expect(bare.stdout).toContain(
      'a server may list more tools to a client that declares more: --declare sampling,elicitation,roots',
    );
    expect(bare.stdout).not.toContain('pick_colors');

    const declared = await runCli(['discover', '--stdio', COMMAND, '--declare', 'elicitation,sampling']);
    expect(declared.code).toBe(0);
    expect(declared.stdout).toContain('declared: sampling, elicitation');
    expect(declared.stdout).toContain('pick_colors');
  });
});
