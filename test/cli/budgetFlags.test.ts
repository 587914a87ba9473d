/**
 * The size-limit flags of `serve` and `summarize`, observed on the wire and in the output; the commands run
 * in-process (`main(argv, io)`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { inProcessStdioChannel, runCli } from '../helpers/cliIo.js';
import { meta } from '../helpers/rawChannel.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
beforeAll(async () => {
  repo = await makeSampleRepo();
  for (let n = 0; n < 300; n++)
    await writeFile(join(repo.root, `notes-${String(n).padStart(3, '0')}.md`), `# note ${n}\n`);
  await writeFile(join(repo.root, 'docs', 'long.md'), `# Long\n\n${'word '.repeat(20_000)}\n`);
});
afterAll(async () => {
  await repo.cleanup();
});

const cli = (args: string[]) => runCli(args);

describe('budget flags', () => {
  it('serve --pick-prompt-bytes bounds the pick_files prompt', async () => {
    const channel = inProcessStdioChannel([
      '--root',
      repo.root,
      '--model',
      'host',
      '--pick-prompt-bytes',
      '2048',
      '--quiet',
    ]);
    const reply = await channel.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
    });
    const text: string = reply.message?.['result'].inputRequests.pick_files.params.messages[0].content.text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
    expect(text).toContain('README.md');
    await channel.close();
  });

  it('summarize --read-bytes and --result-tokens bound what is read and what is returned', async () => {
    const wide = await cli(['summarize', repo.root, '--path', 'docs', '--json', '--max-files', '8', '--quiet']);
    const narrow = await cli([
      'summarize',
      repo.root,
      '--path',
      'docs',
      '--json',
      '--max-files',
      '8',
      '--read-bytes',
      '1024',
      '--result-tokens',
      '100',
      '--quiet',
    ]);
    expect(narrow.code).toBe(0);
    const shown = (out: string) =>
      (JSON.parse(out) as { files: Array<{ bytesShown: number }> }).files.reduce((sum, f) => sum + f.bytesShown, 0);
    expect(shown(narrow.stdout)).toBeLessThanOrEqual(1024);
    expect(shown(wide.stdout)).toBeGreaterThan(1024);
    const text = await cli(['summarize', repo.root, '--result-tokens', '100', '--quiet']);
    expect(text.stdout.length).toBeLessThan((await cli(['summarize', repo.root, '--quiet'])).stdout.length);
  });

  it('refuses out-of-range values at start-up with one line', async () => {
    for (const args of [
      ['summarize', repo.root, '--pick-prompt-bytes', '10'],
      ['serve', '--stdio', '--read-bytes', 'lots'],
      ['serve', '--stdio', '--result-tokens', '0'],
    ]) {
      const result = await cli(args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
