/**
 * The prompt approver's dialog, driven in process through plain streams (`interactive: true`):
 * each choice, cancelling, one dialog at a time, and what the dialog shows for a round.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApprover, summarizeRound, type ApproverOptions } from '../../../src/host/approval/index.js';
import { CTRL_C, DOWN, ENTER } from '../../helpers/pty.js';
import { round, ROUND, sampling } from './rounds.js';
import { screenStreams } from './screenStreams.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'approval-prompt-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function dialog(name: string, extra: Partial<ApproverOptions> = {}) {
  const io = screenStreams();
  const rememberFile = join(dir, name, 'approvals.json');
  const approver = await createApprover(
    { kind: 'prompt' },
    { input: io.input, output: io.output, rememberFile, interactive: true, ...extra },
  );
  return { io, approver, rememberFile };
}

const ESC = '\x1b';
const QUESTION = 'Let this server use your model for this round?';

describe('prompt approver dialog', () => {
  it.each([
    ['approve', '', { kind: 'approve' }],
    ['approve_call', DOWN, { kind: 'approve_call' }],
    ['deny', DOWN + DOWN + DOWN + DOWN, { kind: 'deny', reason: 'denied by the user' }],
    ['Ctrl-C', CTRL_C, { kind: 'deny', reason: 'dialog cancelled' }],
    ['Esc', ESC, { kind: 'deny', reason: 'dialog cancelled' }],
  ])('maps %s to its decision', async (name, keys, expected) => {
    const { io, approver, rememberFile } = await dialog(name);
    const decision = approver.review(ROUND);
    await io.waitFor(QUESTION);
    await io.waitFor('Deny');
    io.press(keys === CTRL_C || keys === ESC ? keys : keys + ENTER);
    expect(await decision).toEqual(expected);
    await expect(readFile(rememberFile)).rejects.toThrow(/ENOENT/);
  });

  it('"Always" persists the server key and tool, and the next round is answered without a dialog', async () => {
    const { io, approver, rememberFile } = await dialog('always');
    const decision = approver.review(ROUND);
    await io.waitFor(QUESTION);
    await io.waitFor('Deny');
    io.press(DOWN + DOWN);
    io.press(ENTER);
    expect(await decision).toEqual({ kind: 'always' });
    expect(JSON.parse(await readFile(rememberFile, 'utf8'))).toEqual({
      version: 1,
      always: [{ server: ROUND.server.key, tool: ROUND.tool }],
    });
    const shown = io.screen();
    expect(await approver.review({ ...ROUND, round: 2 })).toEqual({ kind: 'always' });
    expect(io.screen()).toBe(shown);
  });

  it('an aborted signal closes the open dialog with a message saying why', async () => {
    const { io, approver } = await dialog('abort');
    const controller = new AbortController();
    const decision = approver.review(ROUND, controller.signal);
    await io.waitFor(QUESTION);
    controller.abort(new Error('the call timed out after 60000 ms'));
    expect(await decision).toEqual({ kind: 'deny', reason: 'dialog closed: the call timed out after 60000 ms' });
    await io.waitFor('Dialog closed: the call timed out after 60000 ms. Nothing was approved.');
    const plain = await dialog('abort-plain');
    const aborted = new AbortController();
    const second = plain.approver.review(ROUND, aborted.signal);
    await plain.io.waitFor(QUESTION);
    aborted.abort();
    expect(await second).toEqual({ kind: 'deny', reason: 'dialog closed: the request was aborted' });
  });

  it('shows one dialog at a time: a second review waits for the first answer', async () => {
    const { io, approver } = await dialog('queue');
    const first = approver.review(round([sampling('first_key')], { round: 1 }));
    const second = approver.review(round([sampling('second_key')], { round: 2 }));
    await io.waitFor('first_key');
    await io.waitFor('Deny');
    expect(io.screen()).not.toContain('second_key');
    io.press(ENTER);
    expect(await first).toEqual({ kind: 'approve' });
    await io.waitFor('second_key');
    await io.waitFor('Deny');
    io.press(CTRL_C);
    expect(await second).toEqual({ kind: 'deny', reason: 'dialog cancelled' });
  });

  it('denies without drawing anything when input and output are not terminals', async () => {
    const io = screenStreams();
    const approver = await createApprover(
      { kind: 'prompt' },
      { input: io.input, output: io.output, rememberFile: join(dir, 'plain', 'approvals.json') },
    );
    expect(await approver.review(ROUND)).toEqual({
      kind: 'deny',
      reason: 'no terminal to ask on (use --approve auto, deny or rules:FILE)',
    });
    expect(io.raw()).toBe('');
  });
});

describe('what the dialog shows', () => {
  it('names the server as unverified with its key, the tool, the round and every request', () => {
    const shown = round(
      [
        {
          ...sampling('pick_files', 400, 'Pick files.'),
          params: {
            ...sampling('pick_files').params,
            modelPreferences: { hints: [{ name: 'claude' }, { name: 'gpt' }], costPriority: 0.8 },
          },
        },
        sampling('rank_files', 900, 'Rank them.'),
      ],
      { round: 4 },
    );
    const { title, body } = summarizeRound(shown);
    expect(title).toBe('Model use requested: 2 sampling requests');
    expect(body).toContain('Server: repo-helper (unverified)');
    expect(body).toContain('Key:    http://127.0.0.1:8080/mcp');
    expect(body).toContain('Tool:   summarize_repo · round 4');
    expect(body).toContain('[1/2] input pick_files');
    expect(body).toContain('[2/2] input rank_files');
    expect(body).toContain('maxTokens: 400');
    expect(body).toContain('maxTokens: 900');
    expect(body).toContain('system:    Rank them.');
    expect(body).toContain('hints claude, gpt · cost 0.8 · speed – · intelligence –');
    expect(body).toContain('model:     none');
  });

  it('bounds each message and the whole preview, counting what it cut', () => {
    const long = sampling('flood');
    long.params.messages = Array.from({ length: 40 }, (_, n) => ({
      role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: { type: 'text' as const, text: `m${n} ${'y'.repeat(5000)}` },
    }));
    long.params.systemPrompt = 's'.repeat(10_000);
    const { body } = summarizeRound(round([long], { server: { name: 'n'.repeat(500), key: 'k' } }));
    expect(body.length).toBeLessThan(6000);
    expect(body).toContain('… (+9400 chars)');
    expect(body).toContain(`    user: m0 ${'y'.repeat(297)}… (+`);
    // The system prompt counts toward the preview budget like the messages do.
    expect(body).toMatch(/… not shown here: 32 field\(s\), [\d,]+ chars \(preview limit\) — choose View all/);
    expect(body).toContain(`Server: ${'n'.repeat(80)}… (+420 chars) (unverified)`);
  });

  it('shows the text inside tool_result and resource blocks and the input of tool_use blocks', () => {
    const hidden = sampling('pick_files');
    hidden.params.messages = [
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'u1', name: 'read', input: { path: 'PATH-IN-INPUT' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'u1',
            content: [
              { type: 'text', text: 'TEXT-IN-RESULT' },
              { type: 'resource', resource: { uri: 'file:///r', text: 'TEXT-IN-RESOURCE' } },
            ],
          },
        ],
      },
    ];
    const { body } = summarizeRound(round([hidden]));
    expect(body).toContain('[tool_use read] {"path":"PATH-IN-INPUT"}');
    expect(body).toContain('[tool_result] TEXT-IN-RESULT [resource file:///r] TEXT-IN-RESOURCE');
  });

  it('in a tool loop: shows the tools offered, the tool choice and the calls made so far (names and targets)', () => {
    const loop = sampling('explore');
    loop.params.tools = [
      { name: 'list_directory', inputSchema: { type: 'object' } },
      { name: 'read_file', inputSchema: { type: 'object' } },
      { name: 'search', inputSchema: { type: 'object' } },
    ];
    loop.params.toolChoice = { mode: 'none' };
    loop.params.messages = [
      { role: 'user', content: { type: 'text', text: 'Explore.' } },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'list_directory', input: { path: '.' } },
          { type: 'tool_use', id: 'b', name: 'search', input: { pattern: 'TODO', path: 'src' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'a', content: [{ type: 'text', text: 'README.md' }] },
          { type: 'tool_result', toolUseId: 'b', content: [{ type: 'text', text: 'src/a.ts:3' }] },
        ],
      },
      { role: 'assistant', content: { type: 'tool_use', id: 'c', name: 'read_file', input: { path: 'README.md' } } },
      { role: 'user', content: { type: 'tool_result', toolUseId: 'c', content: [{ type: 'text', text: '# hi' }] } },
    ];
    const { body } = summarizeRound(round([loop, sampling('plain')]));
    expect(body).toContain('  tools:     list_directory, read_file, search · choice none');
    expect(body).toContain('  calls:     3 so far: list_directory .; search "TODO" in src; read_file README.md');
    // A request without tools gets no tool lines.
    expect(body.split('[2/2]')[1]).not.toContain('tools:');
    const fresh = sampling('explore');
    fresh.params.tools = [{ name: 'read_file', inputSchema: { type: 'object' } }];
    const freshBody = summarizeRound(round([fresh])).body;
    expect(freshBody).toContain('  tools:     read_file · choice auto\n');
    expect(freshBody).toContain('  calls:     0 so far');
  });

  it('bounds tool names, targets and the list of calls, and cleans them', () => {
    const loop = sampling('explore');
    loop.params.tools = [{ name: `evil\x1b[2J${'n'.repeat(200)}`, inputSchema: { type: 'object' } }];
    loop.params.messages = [
      { role: 'user', content: { type: 'text', text: 'Explore.' } },
      {
        role: 'assistant',
        content: Array.from({ length: 20 }, (_, n) => ({
          type: 'tool_use' as const,
          id: `u${n}`,
          name: 'read_file',
          input: { path: `${n}-${'p'.repeat(300)}` },
        })),
      },
    ];
    const { body } = summarizeRound(round([loop]));
    expect(body).not.toContain('\x1b');
    expect(body).toContain(`tools:     evil⟨U+001B⟩[2J${'n'.repeat(49)}… (+151 chars) · choice auto`);
    const calls = body.split('\n').find((line) => line.startsWith('  calls:')) ?? '';
    expect(calls).toMatch(/^ {2}calls: {5}20 so far: read_file 0-p{78}… \(\+222 chars\); read_file 1-/);
    expect(calls.length).toBeLessThan(700);
  });

  it('neutralises escape sequences in every server-supplied field', () => {
    const hostile = round([sampling('k\x1b[31m', 10, 'sys\x1b]0;TITLE\x07\u202E')], {
      server: { name: 'good\x1b[2K\rbad', key: 'stdio:x\x1b[A' },
      tool: 't\x1b[5m',
    });
    const { body } = summarizeRound(hostile);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(body).not.toMatch(/[\x00-\x09\x0B-\x1F\x7F-\x9F\u202E]/);
    // Nothing hidden: every control and format character is written out where the model would read it.
    expect(body).toContain('Server: good⟨U+001B⟩[2K bad (unverified)');
    expect(body).toContain('system:    sys⟨U+001B⟩]0;TITLE⟨U+0007⟩⟨U+202E⟩');
    expect(body).toContain('⚠ HIDDEN TEXT: 4 invisible characters');
  });
});
