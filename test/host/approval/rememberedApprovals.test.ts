/** The "always" file: where it lives, its shape, atomic writes and refusing a corrupt file. */
import { chmod, link, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isModelInputError } from '../../../src/errors.js';
import {
  createApprover,
  defaultRememberFile,
  isRemembered,
  readRememberedApprovals,
  rememberAlways,
} from '../../../src/host/approval/index.js';
import { ROUND } from './rounds.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'approval-remember-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('defaultRememberFile', () => {
  it('prefers MCP_MODEL_INPUT_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(defaultRememberFile({ MCP_MODEL_INPUT_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x' })).toBe('/c/approvals.json');
    expect(defaultRememberFile({ XDG_CONFIG_HOME: '/x' })).toBe('/x/mcp-model-input/approvals.json');
    expect(defaultRememberFile({})).toBe(join(homedir(), '.config', 'mcp-model-input', 'approvals.json'));
  });
});

describe('remembered approvals file', () => {
  it('round-trips: a missing file is empty; remembering creates the directory, mode 0600, once per pair', async () => {
    const file = join(dir, 'nested', 'deeper', 'approvals.json');
    expect(await readRememberedApprovals(file)).toEqual({ version: 1, always: [] });
    await rememberAlways(file, 'stdio:node server.js', 'summarize_repo');
    await rememberAlways(file, 'stdio:node server.js', 'summarize_repo');
    await rememberAlways(file, 'http://127.0.0.1:8080/mcp', 'summarize_repo');
    const approvals = await readRememberedApprovals(file);
    expect(approvals).toEqual({
      version: 1,
      always: [
        { server: 'stdio:node server.js', tool: 'summarize_repo' },
        { server: 'http://127.0.0.1:8080/mcp', tool: 'summarize_repo' },
      ],
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(approvals);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(isRemembered(approvals, 'stdio:node server.js', 'summarize_repo')).toBe(true);
    expect(isRemembered(approvals, 'stdio:node server.js', 'other_tool')).toBe(false);
    expect(isRemembered(approvals, 'repo-helper', 'summarize_repo')).toBe(false);
  });

  it('replaces the file by rename, never rewriting it in place', async () => {
    const file = join(dir, 'linked', 'approvals.json');
    await rememberAlways(file, 'a', 't');
    const before = await readFile(file, 'utf8');
    // A hard link keeps the old inode: an in-place write would change what it reads, a rename does not.
    await link(file, join(dir, 'linked', 'old-inode.json'));
    await rememberAlways(file, 'b', 't');
    expect(await readFile(join(dir, 'linked', 'old-inode.json'), 'utf8')).toBe(before);
    expect((await readRememberedApprovals(file)).always).toEqual([
      { server: 'a', tool: 't' },
      { server: 'b', tool: 't' },
    ]);
  });

  // Root ignores directory permissions, so there the write cannot be made to fail this way.
  it.skipIf(process.getuid?.() === 0)('a failed write leaves the old file whole and no temporary file', async () => {
    const sub = join(dir, 'readonly');
    const file = join(sub, 'approvals.json');
    await rememberAlways(file, 'a', 't');
    const before = await readFile(file, 'utf8');
    await chmod(sub, 0o500);
    try {
      const error = await rememberAlways(file, 'b', 't').catch((failure: unknown) => failure);
      expect(isModelInputError(error) && error.code).toBe('config_invalid');
      expect((error as Error).message).toContain(`remembered approvals ${file}: cannot be written`);
      expect(await readFile(file, 'utf8')).toBe(before);
    } finally {
      await chmod(sub, 0o700);
    }
    expect(await readdir(sub)).toEqual(['approvals.json']);
  });

  it('leaves no temporary files after concurrent writers, and the file stays valid JSON', async () => {
    const file = join(dir, 'concurrent', 'approvals.json');
    await rememberAlways(file, 'seed', 't');
    await Promise.all(Array.from({ length: 8 }, (_, n) => rememberAlways(file, `server-${n}`, 't')));
    const approvals = await readRememberedApprovals(file);
    expect(approvals.always.length).toBeGreaterThanOrEqual(2);
    expect(await readdir(join(dir, 'concurrent'))).toEqual(['approvals.json']);
  });

  it('refuses a corrupt file with config_invalid naming it, at read and when the prompt approver is created', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ not json', /not valid JSON/],
      ['[]', /expected "version": 1/],
      ['{"version": 2, "always": []}', /expected "version": 1/],
      ['{"version": 1, "always": [{"server": "a"}]}', /"always" to be a list/],
      ['{"version": 1, "always": [{"server": "a", "tool": "t", "extra": 1}]}', /"always" to be a list/],
    ];
    for (const [index, [text, problem]] of cases.entries()) {
      const file = join(dir, `corrupt-${index}.json`);
      await writeFile(file, text);
      const error = await readRememberedApprovals(file).catch((failure: unknown) => failure);
      expect(isModelInputError(error) && error.code).toBe('config_invalid');
      expect((error as Error).message).toMatch(problem);
      expect((error as Error).message).toContain(file);
      await expect(createApprover({ kind: 'prompt' }, { rememberFile: file })).rejects.toThrow(file);
      // A corrupt file is never overwritten by a new "always".
      await expect(rememberAlways(file, 'x', 'y')).rejects.toThrow(problem);
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('answers a remembered server key and tool with always, even without a terminal', async () => {
    const file = join(dir, 'known.json');
    await rememberAlways(file, ROUND.server.key, ROUND.tool);
    const approver = await createApprover({ kind: 'prompt' }, { rememberFile: file, interactive: false });
    expect(await approver.review(ROUND)).toEqual({ kind: 'always' });
    expect(await approver.review({ ...ROUND, tool: 'other' })).toEqual({
      kind: 'deny',
      reason: 'no terminal to ask on (use --approve auto, deny or rules:FILE)',
    });
    // The self-declared name is not the key: another server calling itself the same is not remembered.
    const impostor = { ...ROUND, server: { name: ROUND.server.name, key: 'http://127.0.0.1:6666/mcp' } };
    expect((await approver.review(impostor)).kind).toBe('deny');
  });
});
