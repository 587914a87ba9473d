/**
 * In-process terminal stand-ins for the clack dialogs: a keyboard (PassThrough) and a screen that
 * records what was drawn. `waitFor` is bounded and consumes the screen up to its match, like the pty helper.
 */
import { PassThrough, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';

export interface ScreenStreams {
  input: PassThrough;
  output: Writable;
  screen(): string;
  raw(): string;
  waitFor(pattern: string, timeoutMs?: number): Promise<void>;
  press(keys: string): void;
}

export function screenStreams(): ScreenStreams {
  const input = new PassThrough();
  let raw = '';
  let cursor = 0;
  const listeners = new Set<() => void>();
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      raw += chunk.toString('utf8');
      for (const listener of [...listeners]) listener();
      callback();
    },
  });
  const screen = () => stripVTControlCharacters(raw);
  return {
    input,
    output,
    screen,
    raw: () => raw,
    press: (keys) => void input.write(keys),
    waitFor: (pattern, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const index = screen().indexOf(pattern, cursor);
          if (index < 0) return;
          cursor = index + pattern.length;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${JSON.stringify(pattern)} within ${timeoutMs} ms; screen:\n${screen()}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}
