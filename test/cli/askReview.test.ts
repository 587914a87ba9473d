/**
 * `ask` and `review`: summarize's siblings on the CLI — the built-in model by default, `--json` for the structured
 * result, summarize's exit codes (2 for usage, including refs the tool refuses; 1 when the tool fails).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../helpers/cliIo.js';
import { git, TempDirs, writeTree } from '../repo/fixture.js';

const temp = new TempDirs();
let root: string;
beforeAll(async () => {
  root = await temp.make('cli-ask-');
  git(root, ['init', '-q']);
  await writeTree(root, {
    'README.md': '# Demo\n',
    'src/retry.ts': 'export function retry(times: number): number {\n  return times * 2; // backoff\n}\n',
  });
  git(root, ['add', '-A']);
  git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'one']);
  await writeTree(root, {
    'src/retry.ts': 'export function retry(times: number): number {\n  debugger;\n  return times;\n}\n',
  });
});
afterAll(() => temp.cleanup());

describe('mcp-model-input ask', () => {
  it('answers with the passages most likely to answer, cited (built-in), as JSON with --json', async () => {
    const { code, stdout } = await runCli(['ask', root, 'where is the retry backoff?', '--json', '--quiet']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { answer: string; citations: Array<{ path: string; verified: boolean }> };
    expect(out.answer).toMatch(/^No language model: the passages most likely to answer/);
    expect(out.citations[0]).toMatchObject({ path: 'src/retry.ts', verified: true });
  });

  it('needs DIR and a question: exit 2', async () => {
    const { code, stderr } = await runCli(['ask', root]);
    expect(code).toBe(2);
    expect(stderr).toContain('ask takes DIR and a QUESTION');
  });
});

describe('mcp-model-input review', () => {
  it('reviews the working tree: the debug statement, as text', async () => {
    const { code, stdout } = await runCli(['review', root, '--quiet']);
    expect(code).toBe(0);
    expect(stdout).toContain('Verdict: comment (HEAD..working tree)');
    expect(stdout).toContain('- low src/retry.ts:2: a debug statement (debugger) is left in');
  });

  it('a ref that is not a commit, or an option: exit 2, one line', async () => {
    for (const base of ['no-such-ref', '--upload-pack=x']) {
      const { code, stderr, stdout } = await runCli(['review', root, `--base=${base}`, '--head', 'HEAD']);
      expect(code).toBe(2);
      expect(stderr).toContain('review_changes: base: ');
      expect(stdout).toBe('');
    }
  });

  it('nothing to review: exit 0 and says so', async () => {
    const { code, stdout } = await runCli(['review', root, '--base', 'HEAD', '--head', 'HEAD', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'nothing_to_review' });
  });
});
