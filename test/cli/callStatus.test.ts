/**
 * The status line of `call` (src/cli/callStatus.ts) on fake streams: on a terminal it is erased when a dialog takes
 * the terminal and drawn again when it is given back, fits the terminal's width, and ends erased; off a terminal,
 * plain lines, one per change.
 */
import { describe, expect, it } from 'vitest';

import { createCallStatus } from '../../src/cli/callStatus.js';
import { createTerminalGate } from '../../src/host/terminalGate.js';
import type { Logger } from '../../src/logger.js';

const CLEAR = '\r\u001b[2K';

function tty(columns = 40) {
  const writes: string[] = [];
  return { writes, stream: { isTTY: true, columns, write: (chunk: string) => writes.push(chunk) } };
}

function lines(): Logger & { lines: string[] } {
  const kept: string[] = [];
  return { lines: kept, info: (message) => kept.push(message), warn: (message) => kept.push(`warn ${message}`) };
}

describe('call status on a terminal', () => {
  it('is erased when a dialog takes the terminal, not drawn while it is held, drawn again after', () => {
    const { writes, stream } = tty();
    const terminal = createTerminalGate();
    let tick: () => void = () => undefined;
    const status = createCallStatus({
      stream,
      terminal,
      logger: lines(),
      now: () => 0,
      every: (_ms, redraw) => {
        tick = redraw;
        return () => (tick = () => undefined);
      },
    });
    status.task({ status: 'working', statusMessage: 'reading \u001b[31mfiles' });
    expect(writes.at(-1)).toBe(`${CLEAR}⠋ task working: reading files (0 s)`);
    tick();
    expect(writes.at(-1)).toBe(`${CLEAR}⠙ task working: reading files (0 s)`);

    const release = terminal.hold();
    expect(writes.at(-1)).toBe(CLEAR);
    const held = writes.length;
    tick();
    status.task({ status: 'input_required', statusMessage: 'Waiting for input: q1' });
    expect(writes.length).toBe(held);
    release();
    expect(writes.at(-1)?.slice(CLEAR.length)).toMatch(/^. task input_required: Waiting f… \(0 s\)$/);
    expect(writes.at(-1)?.startsWith(CLEAR)).toBe(true);
    expect(Array.from(writes.at(-1)?.slice(CLEAR.length) ?? '').length).toBeLessThanOrEqual(39);

    status.task({ status: 'completed' });
    expect(writes.at(-1)).toBe(CLEAR);
    const ended = writes.length;
    tick();
    status.progress({ progress: 1, message: 'late' });
    expect(writes.length).toBe(ended);
  });

  it('erases itself before a logged line', () => {
    const { writes, stream } = tty();
    const logger = lines();
    const status = createCallStatus({ stream, terminal: createTerminalGate(), logger, every: () => () => undefined });
    status.progress({ progress: 2, total: 5, message: 'ranking' });
    expect(writes.at(-1)).toContain('ranking (2/5)');
    status.around(logger).info('round 1: answered q1');
    expect(writes.at(-1)).toBe(CLEAR);
    expect(logger.lines).toEqual(['round 1: answered q1']);
  });
});

describe('call status off a terminal', () => {
  it('writes one plain line per change; counts of one message at most once a second', () => {
    const logger = lines();
    let clock = 0;
    const status = createCallStatus({
      stream: { write: () => true },
      terminal: createTerminalGate(),
      logger,
      now: () => clock,
    });
    status.task({ status: 'working', statusMessage: 'Queued' });
    status.task({ status: 'working', statusMessage: 'Queued' });
    status.task({ status: 'working', statusMessage: 'step \u001b[31mone' });
    status.progress({ progress: 1, total: 3, message: 'reading' });
    status.progress({ progress: 2, total: 3, message: 'reading' });
    clock = 1_000;
    status.progress({ progress: 3, total: 3, message: 'reading' });
    status.progress({ progress: 3, total: 3, message: 'writing' });
    expect(logger.lines).toEqual([
      'task working: Queued',
      'task working: step one',
      'reading (1/3)',
      'reading (3/3)',
      'writing (3/3)',
    ]);
  });
});
