/** `summarize --mode explore`: the built-in explorer walks the tree, and the output lists what it looked at. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../src/cli/main.js';
import { capturedIo } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

describe('summarize --mode', () => {
  it('explore prints the summary, a note and one line per tool call', async () => {
    const io = capturedIo();
    expect(await main(['summarize', repo.root, '--mode', 'explore', '--quiet'], io)).toBe(0);
    const out = io.out();
    expect(out).toContain('sample-widget');
    expect(out).toContain('Note: Explored with 5 tool calls');
    expect(out).toContain('What the model looked at:\n- list_directory . (');
    expect(out).toMatch(/- read_file README\.md:1\+200 \(\d+ bytes\)/);
  });

  it('explore --json records the mode and the calls', async () => {
    const io = capturedIo();
    expect(await main(['summarize', repo.root, '--mode', 'explore', '--json', '--quiet'], io)).toBe(0);
    const out = JSON.parse(io.out());
    expect(out.mode).toBe('explore');
    expect(out.exploration.calls.length).toBe(5);
  });

  it('pick stays the default, and an unknown mode is a usage error', async () => {
    const io = capturedIo();
    expect(await main(['summarize', repo.root, '--json', '--quiet'], io)).toBe(0);
    expect(JSON.parse(io.out()).mode).toBe('pick');
    const bad = capturedIo();
    expect(await main(['summarize', repo.root, '--mode', 'wander'], bad)).toBe(2);
    expect(bad.err()).toContain('--mode must be pick or explore');
  });
  it('explore --model host: the MRTR rounds, the built-in explorer as the host model (it declares sampling.tools)', async () => {
    const io = capturedIo();
    expect(await main(['summarize', repo.root, '--mode', 'explore', '--model', 'host', '--json', '--quiet'], io)).toBe(
      0,
    );
    const out = JSON.parse(io.out());
    expect(out.mode).toBe('explore');
    expect(out.usage.calls).toBe(0);
    expect(out.exploration.calls.map((call: { tool: string }) => call.tool)).toEqual([
      'list_directory',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
    ]);
  });
});
