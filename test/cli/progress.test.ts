import { describe, expect, it } from 'vitest';

import { createProgressLine, describeProgress } from '../../src/cli/progress.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { runCli } from '../helpers/cliIo.js';

function fakeStream(isTTY: boolean): { isTTY: boolean; written: string[]; write(chunk: string): boolean } {
  const written: string[] = [];
  return { isTTY, written, write: (chunk: string) => written.push(chunk) > 0 };
}

describe('progress line', () => {
  it('is off when stderr is not a terminal, or when turned off', () => {
    expect(createProgressLine(fakeStream(false))).toBeUndefined();
    expect(createProgressLine({ write: () => true })).toBeUndefined();
    expect(createProgressLine(fakeStream(true), { enabled: false })).toBeUndefined();
  });

  it('redraws one line at most every 100 ms, always draws phase ends, and erases itself', () => {
    const stream = fakeStream(true);
    let clock = 0;
    const line = createProgressLine(stream, { now: () => clock });
    line?.update({ phase: 'listing', files: 1000 });
    clock = 50;
    line?.update({ phase: 'listing', files: 2000 }); // too soon: skipped
    clock = 60;
    line?.update({ phase: 'listed', files: 123_456, source: { kind: 'git' } });
    clock = 70;
    line?.update({ phase: 'reading', done: 3, of: 3 });
    line?.done();
    expect(stream.written).toEqual([
      '\r\u001b[2Klisting… 1,000 files',
      '\r\u001b[2Klisted 123,456 files (git ls-files)',
      '\r\u001b[2Kreading files 3/3',
      '\r\u001b[2K',
    ]);
  });

  it('writes nothing at the end when nothing was drawn', () => {
    const stream = fakeStream(true);
    createProgressLine(stream)?.done();
    expect(stream.written).toEqual([]);
  });

  it('describes every phase', () => {
    expect(describeProgress({ phase: 'listed', files: 5, source: { kind: 'walker', reason: 'git_timeout' } })).toBe(
      'listed 5 files (walker)',
    );
    expect(describeProgress({ phase: 'inspecting', done: 1216 })).toBe('ranking… inspected 1,216 candidates');
  });
});

describe('summarize with stderr not a terminal', () => {
  it('prints no progress line', async () => {
    const repo = await makeSampleRepo();
    try {
      // In-process: the captured stderr is a plain stream (no isTTY), as a pipe is.
      const { stdout, stderr } = await runCli(['summarize', repo.root]);
      expect(stdout).toContain('sample-widget');
      expect(stderr).not.toContain('\u001b[2K');
      expect(stderr).not.toMatch(/listed \d+ files|reading files/);
    } finally {
      await repo.cleanup();
    }
  });
});

describe('progress line and log lines', () => {
  it('erases the progress line before a log line', () => {
    const stream = fakeStream(true);
    const line = createProgressLine(stream, { now: () => 0 });
    const logged: string[] = [];
    const logger = line?.around({ info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`) });
    line?.update({ phase: 'listed', files: 1, source: { kind: 'git' } });
    logger?.info('hello');
    logger?.warn('careful');
    expect(stream.written).toEqual(['\r\u001b[2Klisted 1 files (git ls-files)', '\r\u001b[2K']);
    expect(logged).toEqual(['info hello', 'warn careful']);
  });
});
