/**
 * Terminal elicitation: a form filled in a real pty (test/fixtures/host/elicitForm.mjs), and the
 * other field kinds and answers driven in process through plain streams (`interactive: true`).
 */
import { fileURLToPath } from 'node:url';

import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';

import { createTerminalElicitor } from '../../src/host/elicitTerminal.js';
import { BACKSPACE, CTRL_C, DOWN, ENTER, spawnPty, type PtyProcess } from '../helpers/pty.js';
import { screenStreams } from './approval/screenStreams.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONTEXT = { server: { name: 'repo-helper', key: 'http://127.0.0.1:8080/mcp' }, tool: 'summarize_repo' };
const SPACE = ' ';

let running: PtyProcess | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

function form(properties: ElicitRequestFormParams['requestedSchema']['properties'], required: string[] = []) {
  return {
    mode: 'form' as const,
    message: 'Tell me',
    requestedSchema: { type: 'object' as const, properties, required },
  };
}

function elicitor() {
  const io = screenStreams();
  return { io, elicit: createTerminalElicitor({ input: io.input, output: io.output, interactive: true }) };
}

async function respond(io: ReturnType<typeof screenStreams>) {
  await io.waitFor('Respond to this request?');
  await io.waitFor('Cancel');
  io.press(ENTER);
}

describe('terminal elicitation in a pty', () => {
  it('fills a string and an integer field, re-asking while the number is invalid', async () => {
    const pty = spawnPty(process.execPath, ['test/fixtures/host/elicitForm.mjs'], { cwd: ROOT });
    running = pty;
    await pty.waitFor('Respond to this request?', 20_000);
    await pty.waitFor('Cancel');
    expect(pty.output()).toContain('Input requested by repo-helper (unverified)');
    expect(pty.output()).toContain('Which project and how many files?\u241B0;PWNED');
    expect(pty.raw()).not.toContain('\x1b]0;');
    pty.write(ENTER);
    await pty.waitFor('Project name');
    pty.write('a');
    pty.write(ENTER);
    await pty.waitFor('at least 2 characters');
    pty.write('b');
    pty.write(ENTER);
    await pty.waitFor('Files');
    pty.write('x');
    pty.write(ENTER);
    await pty.waitFor('enter a number');
    pty.write(`${BACKSPACE}42`);
    pty.write(ENTER);
    await pty.waitFor('at most 10');
    pty.write(`${BACKSPACE}${BACKSPACE}7`);
    pty.write(ENTER);
    await pty.waitFor(/RESULT \{.*\}\n/, 15_000);
    expect(JSON.parse(/RESULT (\{.*\})/.exec(pty.output())?.[1] ?? 'null')).toEqual({
      action: 'accept',
      content: { project: 'ab', files: 7 },
    });
    expect(await pty.exit).toBe(0);
  });
});

describe('terminal elicitation', () => {
  it('asks booleans, enums (enumNames and oneOf), enum arrays, and leaves an empty optional field out', async () => {
    const { io, elicit } = elicitor();
    const result = elicit(
      form(
        {
          deep: { type: 'boolean', title: 'Deep scan' },
          level: { type: 'string', title: 'Level', enum: ['lo', 'hi'], enumNames: ['Low', 'High'] },
          lang: {
            type: 'string',
            title: 'Language',
            oneOf: [
              { const: 'ts', title: 'TypeScript' },
              { const: 'py', title: 'Python' },
            ],
          },
          parts: { type: 'array', title: 'Parts', items: { type: 'string', enum: ['src', 'docs', 'test'] } },
          note: { type: 'string', title: 'Note' },
        },
        ['deep', 'level', 'lang', 'parts'],
      ),
      CONTEXT,
    );
    await respond(io);
    await io.waitFor('Deep scan');
    io.press('y'); // confirm answers on y/n without Enter
    await io.waitFor('Level');
    await io.waitFor('High');
    io.press(DOWN + ENTER);
    await io.waitFor('Language');
    await io.waitFor('Python');
    io.press(ENTER);
    await io.waitFor('Parts');
    await io.waitFor('test');
    io.press(SPACE + DOWN + DOWN + SPACE + ENTER);
    await io.waitFor('Note (optional)');
    io.press(ENTER);
    expect(await result).toEqual({
      action: 'accept',
      content: { deep: true, level: 'hi', lang: 'ts', parts: ['src', 'test'] },
    });
  });

  it('re-asks a string that is not an email address', async () => {
    const { io, elicit } = elicitor();
    const result = elicit(form({ mail: { type: 'string', title: 'Mail', format: 'email' } }, ['mail']), CONTEXT);
    await respond(io);
    await io.waitFor('Mail');
    io.press('nope');
    io.press(ENTER);
    await io.waitFor('not an email address');
    io.press('@example.org');
    io.press(ENTER);
    expect(await result).toEqual({ action: 'accept', content: { mail: 'nope@example.org' } });
  });

  it.each([
    ['Decline', DOWN + ENTER, { action: 'decline' }],
    ['Cancel', DOWN + DOWN + ENTER, { action: 'cancel' }],
    ['Ctrl-C', CTRL_C, { action: 'cancel' }],
    ['Esc', '\x1b', { action: 'cancel' }],
  ])('%s at the first question', async (_name, keys, expected) => {
    const { io, elicit } = elicitor();
    const result = elicit(form({ a: { type: 'string' } }), CONTEXT);
    await io.waitFor('Respond to this request?');
    await io.waitFor('Cancel');
    io.press(keys);
    expect(await result).toEqual(expected);
    expect(io.screen()).not.toContain('◆  a');
  });

  it('Ctrl-C in the middle of the form cancels the whole request', async () => {
    const { io, elicit } = elicitor();
    const result = elicit(
      form({ a: { type: 'string', title: 'First' }, b: { type: 'number', title: 'Second' } }),
      CONTEXT,
    );
    await respond(io);
    await io.waitFor('First');
    io.press(`x${ENTER}`);
    await io.waitFor('Second');
    io.press(CTRL_C);
    expect(await result).toEqual({ action: 'cancel' });
  });

  it('declines without drawing anything when there is no terminal', async () => {
    const io = screenStreams();
    const elicit = createTerminalElicitor({ input: io.input, output: io.output });
    expect(await elicit(form({ a: { type: 'string' } }), CONTEXT)).toEqual({ action: 'decline' });
    expect(io.raw()).toBe('');
  });
});

describe('terminal elicitation when its request goes away', () => {
  it('closes the open question with a message and answers cancel', async () => {
    const { io, elicit } = elicitor();
    const controller = new AbortController();
    const answer = elicit(form({ a: { type: 'string' } }), { ...CONTEXT, signal: controller.signal });
    await io.waitFor('Respond to this request?');
    controller.abort(new Error('the server withdrew its request (Request timed out)'));
    expect(await answer).toEqual({ action: 'cancel' });
    await io.waitFor('Dialog closed: the server withdrew its request (Request timed out).');
  });
});
