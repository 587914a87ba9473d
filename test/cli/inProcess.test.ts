/**
 * The CLI is a function of its inputs: `main(argv, io)` with captured streams and an environment of
 * the test's choosing, no child process. (A few end-to-end process tests per command stay elsewhere.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../src/cli/main.js';
import { VERSION } from '../../src/version.js';
import { capturedIo } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

describe('main(argv, io)', () => {
  it('--version writes the version to the given stdout only', async () => {
    const io = capturedIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toBe(`${VERSION}\n`);
    expect(io.err()).toBe('');
  });

  it('summarize --json prints the structured result; its diagnostics go to the given stderr', async () => {
    const io = capturedIo();
    expect(await main(['summarize', repo.root, '--json'], io)).toBe(0);
    const result = JSON.parse(io.out()) as { files: Array<{ path: string }> };
    expect(result.files.map((file) => file.path)).toContain('README.md');
    expect(io.err()).toContain('model call summary');
  });

  it('reads provider keys from the given environment, not the process', async () => {
    const io = capturedIo({});
    const previous = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-test-from-the-process-environment';
    try {
      expect(await main(['summarize', repo.root, '--model', 'openai:gpt-test'], io)).toBe(2);
    } finally {
      if (previous === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = previous;
    }
    expect(io.err()).toContain('OPENAI_API_KEY');
    expect(io.out()).toBe('');
  });

  it('plan prints a plan; an unknown command is a usage error on stderr', async () => {
    const io = capturedIo();
    expect(await main(['plan', 'examples/plans/summarize-repo.yaml'], io)).toBe(0);
    expect(io.out()).toContain('summarize_repo');
    const bad = capturedIo();
    expect(await main(['no-such-command'], bad)).toBe(2);
    expect(bad.err()).toContain("unknown command 'no-such-command'");
    expect(bad.out()).toBe('');
  });
});
