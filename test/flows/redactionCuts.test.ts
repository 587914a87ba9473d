/**
 * Issue 26: redaction is decided on the whole file, then windowed and cut, so a cut never leaves a part of a
 * secret: explore's read_file starting at line 2 of a private key (the BEGIN line the key rule needs is above the
 * window), a search result line cut at its character cap inside a token, and the pick's read budget ending inside a
 * token (byte 16,384). Before, each showed the key's body or 8 to 30 characters of the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SealedFlow } from '../../src/flows/engine.js';
import { runSummarizeRepo } from '../../src/app/summarizeRepoRun.js';
import { summarizeRepoInput } from '../../src/flows/summarizeRepo/schema.js';
import { silentLogger } from '../../src/logger.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { createExplorer, DEFAULT_EXPLORE_TOOL_LIMITS } from '../../src/repo/explore/index.js';
import { openRepository } from '../../src/repo/index.js';
import { createEphemeralKeyRing, createStateCodec } from '../../src/state/index.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { firstCallContext } from '../helpers/toolContext.js';
import { fake, pem } from '../repo/secrets/corpus.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY = pem('RSA PRIVATE KEY', 'MIIEow', 'cuts');
const TOKEN = `ghp_${fake('cuts-token', 36, ALNUM)}`;
/** The byte the pick's read budget ends at, per file. */
const PER_FILE = 16_384;

/** Whether `text` shows any 8 consecutive characters of `secret` (past its 4-character prefix). */
function showsPartOf(text: string, secret: string): boolean {
  for (let at = 4; at + 8 <= secret.length; at++) if (text.includes(secret.slice(at, at + 8))) return true;
  return false;
}

let repo: FixtureRepo;
beforeAll(async () => {
  // The token crosses byte 16,384 of the file: 20 of its characters before the cut, 20 after.
  const filler = `${'// filler line of the module\n'.repeat(Math.floor((PER_FILE - 200) / 29))}`;
  const pad = 'x'.repeat(PER_FILE - 20 - filler.length - 'const t = "'.length);
  repo = await makeTree(
    {
      'README.md': '# Cuts\n',
      'deploy/signing.txt': `${KEY}\n`,
      'src/long.ts': `${'const x = 1;\n'.repeat(3)}const header = "${'h'.repeat(130)} ${TOKEN}";\n`,
      'src/big.ts': `${filler}${pad}const t = "${TOKEN}";\n${'// more\n'.repeat(400)}`,
    },
    'mmi-cuts-',
  );
});
afterAll(async () => {
  await repo.cleanup();
});

describe('a window or a cut never shows a part of a secret', () => {
  it("explore's read_file from line 2 of a private key shows only markers", async () => {
    const explorer = createExplorer(await openRepository(repo.root, { listing: 'walker' }));
    for (const startLine of [1, 2, 5, 12]) {
      const result = await explorer.run(
        { tool: 'read_file', path: 'deploy/signing.txt', startLine, maxLines: 4 },
        8_192,
      );
      expect(result.error).toBeUndefined();
      for (const line of KEY.split('\n').slice(1, -1)) expect(result.text).not.toContain(line);
      expect(result.text).toContain('[redacted: private key]');
      expect(result.redacted).toEqual([['private key', 1]]);
      // Line numbers are the file's: the window says where it starts.
      expect(result.text).toContain(`lines=${startLine}-`);
    }
  });

  it('a search result line cut at its character cap never ends inside a token', async () => {
    const explorer = createExplorer(await openRepository(repo.root, { listing: 'walker' }));
    for (const pattern of ['header', 'ghp_', TOKEN.slice(0, 10)]) {
      const result = await explorer.run({ tool: 'search', pattern, regex: false, path: '' }, 8_192);
      expect(showsPartOf(result.text, TOKEN)).toBe(false);
    }
    // A search for the secret's own text matches nothing once redacted: no oracle of its characters.
    const probe = await explorer.run({ tool: 'search', pattern: TOKEN.slice(0, 12), regex: false, path: 'src' }, 8_192);
    expect(probe.text).toMatch(/: 0 matching lines/);
    const shown = await explorer.run({ tool: 'search', pattern: 'header', regex: false, path: 'src' }, 8_192);
    expect(shown.text).toContain('[redacted: GitHub token]');
    expect(DEFAULT_EXPLORE_TOOL_LIMITS.maxMatchChars).toBeLessThan(16 + 131 + TOKEN.length);
  });

  it("the pick's read budget ending inside a token replaces the token whole", async () => {
    const model = createScriptedModel({ pick_files: JSON.stringify(['src/big.ts']), summary: 'A summary.' });
    const result = await runSummarizeRepo(
      {
        root: repo.root,
        codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
        models: { spec: 'test', sourceFor: () => ({ kind: 'server', model }) },
        logger: silentLogger,
        surveyCache: false,
      },
      summarizeRepoInput.parse({ maxFiles: 1 }),
      firstCallContext(),
    );
    const summaryPrompt = JSON.stringify(model.calls.find((call) => call.key === 'summary')?.params);
    expect(summaryPrompt).toContain('[… truncated: showing');
    expect(summaryPrompt).toContain('[redacted: GitHub token]');
    expect(showsPartOf(summaryPrompt, TOKEN)).toBe(false);
    expect(showsPartOf(JSON.stringify(result), TOKEN)).toBe(false);
  });
});
