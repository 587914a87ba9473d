/**
 * Issue 26: a corpus of more than 50 credential formats (test/repo/secrets/formats.ts, generated at run time) in a
 * repository, summarized on every path — the built-in model, a server-owned provider, the host's model over MRTR in
 * pick mode and in explore mode (read_file windows, one starting at line 2 inside a private key, and searches), and
 * a 2025-11-25 client's live sampling. Each format's line reaches the model (its label is in the prompts) and its
 * value never does, nor the result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { runPath, SECRET_PATHS, type PathRepo } from '../helpers/secretPaths.js';
import { credentialFormats, forbiddenOf, formatFiles, labelOf } from '../repo/secrets/formats.js';

const FORMATS = credentialFormats();
let fixture: FixtureRepo;
let repo: PathRepo;
beforeAll(async () => {
  const files = { 'README.md': '# Formats\n\nConfiguration samples.\n', ...formatFiles() };
  fixture = await makeTree(files, 'mmi-formats-');
  repo = {
    root: fixture.root,
    files: Object.keys(formatFiles()),
    keyFile: Object.keys(formatFiles())[0]!,
    searchDir: 'conf',
  };
});
afterAll(async () => {
  await fixture.cleanup();
});

describe('the credential formats corpus on every path', () => {
  it('holds more than 50 formats, all distinct', () => {
    expect(FORMATS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(FORMATS.map((format) => format.value)).size).toBe(FORMATS.length);
  });

  it.each(SECRET_PATHS)('%s: no value reaches a model or the result; every line was shown', async (path) => {
    const run = await runPath(path, repo);
    const leaked = FORMATS.filter((format) =>
      forbiddenOf(format).some((value) => run.prompts.includes(value) || run.output.includes(value)),
    ).map((format) => format.id);
    expect(leaked).toEqual([]);
    if (path !== 'builtin') {
      const unseen = FORMATS.filter((format) => !run.prompts.includes(labelOf(format.id))).map((format) => format.id);
      expect(unseen).toEqual([]);
      expect(run.prompts).toContain('[redacted: ');
    }
  });
});
