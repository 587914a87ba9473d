/** Where a stdio server's stderr goes: prefixed lines held while a dialog holds the terminal, a log file, the flag. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isModelInputError } from '../../src/errors.js';
import { createPrefixedStderr, openServerStderr, parseServerStderr } from '../../src/host/serverStderr.js';
import { createTerminalGate } from '../../src/host/terminalGate.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'server-stderr-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function screen() {
  let text = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  });
  return { output, text: () => text };
}

function write(stream: Writable, chunk: string | Buffer): Promise<void> {
  return new Promise((resolve) => stream.write(chunk, () => resolve()));
}

describe('prefixed server stderr', () => {
  it('shows each line prefixed, with escapes written out; a split UTF-8 character and a partial line wait', async () => {
    const { output, text } = screen();
    const stderr = createPrefixedStderr({ output });
    await write(stderr, 'first line\nsecond \x1b[31mred\x1b[0m\u202E\r\nthird ');
    const bytes = Buffer.from('é\n', 'utf8');
    await write(stderr, bytes.subarray(0, 1));
    expect(text()).toBe('server stderr │ first line\nserver stderr │ second ⟨U+001B⟩[31mred⟨U+001B⟩[0m⟨U+202E⟩\n');
    await write(stderr, bytes.subarray(1));
    await new Promise<void>((resolve) => stderr.end(() => resolve()));
    expect(text()).toContain('server stderr │ third é\n');
  });

  it('holds lines while a dialog holds the terminal and shows them when it is released', async () => {
    const { output, text } = screen();
    const terminal = createTerminalGate();
    const stderr = createPrefixedStderr({ output, terminal });
    const release = terminal.hold();
    await write(stderr, '● Deny (recommended)\n');
    expect(text()).toBe('');
    release();
    expect(text()).toBe('server stderr │ ● Deny (recommended)\n');
    await write(stderr, 'after\n');
    expect(text()).toContain('server stderr │ after\n');
  });

  it('--server-stderr: the four modes, a log file appended, and mistakes refused', async () => {
    expect(parseServerStderr('prefixed')).toEqual({ kind: 'prefixed' });
    expect(parseServerStderr('inherit')).toEqual({ kind: 'inherit' });
    expect(parseServerStderr('ignore')).toEqual({ kind: 'ignore' });
    expect(parseServerStderr('log:/tmp/x.log')).toEqual({ kind: 'log', file: '/tmp/x.log' });
    for (const bad of ['log:', 'pipe', '']) {
      expect(() => parseServerStderr(bad)).toThrow(/--server-stderr must be prefixed, inherit, ignore or log:FILE/);
    }
    const file = join(dir, 'server.log');
    const log = openServerStderr({ kind: 'log', file }, { output: screen().output });
    await write(log.stderr as Writable, 'raw \x1b[31mline\n');
    await log.close();
    expect(await readFile(file, 'utf8')).toBe('raw \x1b[31mline\n');
    const error = (() => {
      try {
        openServerStderr({ kind: 'log', file: join(dir, 'missing', 'x.log') }, { output: screen().output });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isModelInputError(error) && error.code === 'config_invalid').toBe(true);
  });
});
