import { describe, expect, it } from 'vitest';

import { createProgressLine, describeModelCall, describeProgress, modelCallReporter } from '../../src/cli/progress.js';
import { observeModelCalls } from '../../src/models/observedPlan.js';
import { chatCompletion, startFakeProvider } from '../models/fakeProviders.js';
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

describe('model calls on the progress line', () => {
  it('says which model is asked for which step, with the elapsed time, and erases itself when it ends', () => {
    const stream = fakeStream(true);
    let clock = 1_000;
    let tick: (() => void) | undefined;
    let stopped = false;
    const line = createProgressLine(stream, {
      now: () => clock,
      every: (_ms, redraw) => {
        tick = redraw;
        return () => {
          stopped = true;
        };
      },
    });
    line?.update({ phase: 'reading', done: 3, of: 3 });
    const ended = line?.modelCall('openai:gpt-5.4-mini', 'pick_files');
    clock = 5_200;
    tick?.();
    ended?.();
    expect(stream.written).toEqual([
      '\r\u001b[2Kreading files 3/3',
      '\r\u001b[2Kasking openai:gpt-5.4-mini (pick, 0.0 s)…',
      '\r\u001b[2Kasking openai:gpt-5.4-mini (pick, 4.2 s)…',
      '\r\u001b[2K',
    ]);
    expect(stopped).toBe(true);
  });

  it('without a terminal: one plain line per call as it starts; none with --quiet', () => {
    const logged: string[] = [];
    const logger = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(`warn ${m}`) };
    modelCallReporter(undefined, logger, false)?.started('anthropic:claude-sonnet-5-5', 'summary')();
    expect(logged).toEqual(['asking anthropic:claude-sonnet-5-5 (summary)…']);
    expect(modelCallReporter(undefined, logger, true)).toBeUndefined();
    expect(describeModelCall('m', 'explore', 61_000)).toBe('asking m (explore, 61.0 s)…');
  });

  it('an observed plan reports each server-owned call while it runs, and chooses as the plan does', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const model = {
      name: 'openai:m',
      complete: () =>
        new Promise<never>((_resolve, reject) => {
          release = () => reject(new Error('done'));
        }),
    };
    const plan = {
      spec: 'host,openai:m',
      sourceFor: (_key: string, capabilities: { sampling?: object }) =>
        capabilities.sampling === undefined ? ({ kind: 'server', model } as const) : ({ kind: 'host' } as const),
    };
    const observed = observeModelCalls(plan, {
      started: (name, key) => {
        events.push(`start ${name} ${key}`);
        return () => events.push('end');
      },
    });
    expect(observed.sourceFor('pick_files', { sampling: {} })).toEqual({ kind: 'host' });
    const source = observed.sourceFor('pick_files', {});
    expect(source).toBe(observed.sourceFor('summary', {}));
    if (source?.kind !== 'server') throw new Error('expected the server source');
    const call = source.model.complete({ key: 'pick_files', params: { messages: [], maxTokens: 1 } });
    expect(events).toEqual(['start openai:m pick_files']);
    release();
    await expect(call).rejects.toThrow('done');
    expect(events).toEqual(['start openai:m pick_files', 'end']);
  });
});

describe('summarize on a provider, stderr not a terminal', () => {
  it('says as each model call starts which model it asks, and lists what it read under the summary', async () => {
    const repo = await makeSampleRepo();
    const openai = await startFakeProvider('openai');
    try {
      openai.enqueue(
        { body: chatCompletion({ text: '["README.md", "package.json"]' }) },
        { body: chatCompletion({ text: 'Sample Widget turns CSV files into charts.' }) },
      );
      const env = { OPENAI_API_KEY: '', OPENAI_BASE_URL: openai.baseUrl, ANTHROPIC_API_KEY: '' };
      const { code, stdout, stderr } = await runCli(['summarize', repo.root, '--model', 'openai:m'], env);
      expect(code).toBe(0);
      const lines = stderr.split('\n');
      const asked = lines.findIndex((line) => line.includes('asking openai:m (pick)…'));
      const answered = lines.findIndex((line) => line.includes('model call pick_files:'));
      expect(asked).toBeGreaterThanOrEqual(0);
      expect(answered).toBeGreaterThan(asked);
      expect(stderr).toContain('asking openai:m (summary)…');
      expect(stdout).toContain('Sample Widget turns CSV files into charts.');
      expect(stdout).toMatch(/\nWhat it read:\n- README\.md \(\d+ bytes\)\n- package\.json \(\d+ bytes\)/);

      openai.enqueue(
        { body: chatCompletion({ text: '["README.md"]' }) },
        { body: chatCompletion({ text: 'Sample Widget.' }) },
      );
      const quiet = await runCli(['summarize', repo.root, '--model', 'openai:m', '--quiet'], env);
      expect(quiet.stderr).not.toContain('asking');
    } finally {
      await openai.close();
      await repo.cleanup();
    }
  });

  it('the built-in summary keeps its own list: no second one', async () => {
    const repo = await makeSampleRepo();
    try {
      const { stdout } = await runCli(['summarize', repo.root, '--quiet']);
      expect(stdout).toContain('## What it read');
      expect(stdout).not.toContain('\nWhat it read:');
    } finally {
      await repo.cleanup();
    }
  });
});
