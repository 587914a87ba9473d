/**
 * Explore mode on the credential corpus: a model that asks for every secret-bearing file, reads every ordinary file
 * holding secrets and searches for secret-looking text never sees a secret value, nor does the result; what was
 * withheld is reported.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SealedFlow } from '../../../src/flows/engine.js';
import { runSummarizeRepo } from '../../../src/app/summarizeRepoRun.js';
import { summarizeRepoInput } from '../../../src/flows/summarizeRepo/schema.js';
import { silentLogger } from '../../../src/logger.js';
import { createEphemeralKeyRing, createStateCodec } from '../../../src/state/index.js';
import { makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { createToolScriptedModel } from '../../helpers/toolModel.js';
import { forbiddenStrings, ordinaryFiles, secretFiles } from '../../repo/secrets/corpus.js';
import { firstCallContext } from '../../helpers/toolContext.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeTree({ ...ordinaryFiles(), ...secretFiles() }, 'mmi-explore-secrets-');
});
afterAll(async () => {
  await repo.cleanup();
});

describe('explore on the credential corpus', () => {
  it('never shows a secret to the model or in the result, and reports what it withheld', async () => {
    const secretNames = Object.keys(secretFiles()).slice(0, 8);
    const ordinary = Object.keys(ordinaryFiles()).slice(0, 6);
    const model = createToolScriptedModel((params, turn) => {
      if (params.toolChoice?.mode === 'none') return { summary: 'Summary.' };
      if (turn === 0) return { calls: secretNames.map((path) => ({ name: 'read_file', input: { path } })) };
      if (turn === 1) return { calls: ordinary.map((path) => ({ name: 'read_file', input: { path } })) };
      if (turn === 2) {
        return {
          calls: [
            { name: 'search', input: { pattern: 'KEY' } },
            { name: 'search', input: { pattern: '(?i)(token|secret|password)', regex: true } },
          ],
        };
      }
      return { summary: 'Summary.' };
    });
    const result = (await runSummarizeRepo(
      {
        root: repo.root,
        codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
        models: { spec: 'test', sourceFor: () => ({ kind: 'server', model }) },
        logger: silentLogger,
        surveyCache: false,
        repository: { listing: 'walker' },
      },
      summarizeRepoInput.parse({ mode: 'explore' }),
      firstCallContext(),
    )) as CallToolResult;
    expect(result.isError).toBe(false);
    const everything = JSON.stringify(model.requests) + JSON.stringify(result);
    for (const forbidden of forbiddenStrings()) {
      if (everything.includes(forbidden))
        throw new Error(`a secret reached the model or the result: ${forbidden.slice(0, 10)}…`);
    }
    const out = result.structuredContent as Record<string, any>;
    const errors = out['exploration'].calls.slice(0, secretNames.length).map((call: { error?: string }) => call.error);
    expect(errors.every((error: string | undefined) => error === 'secret_file')).toBe(true);
    expect(out['redacted'].length).toBeGreaterThan(0);
    expect(JSON.stringify(model.requests)).toContain('[redacted: ');
    expect(
      result.content.some(
        (block) => 'text' in block && /Note: \d+ secrets? in \d+ files? (?:was|were) redacted/.test(block.text),
      ),
    ).toBe(true);
  });
});
