/**
 * Issue 26: format and control characters (Unicode Cc and Cf: bidi overrides such as U+202E, zero-width characters,
 * BEL) from the repository or a model are escaped by one function (protocol/sanitize.ts: escapeControls) wherever
 * they enter a prompt, a terminal line or a result field: package.json fields in the prompts and in `summarize`'s
 * printed text and JSON, the model's pick echoed in `dropped`, and the model's name in `structuredContent.model`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { escapeControls } from '../../src/protocol/sanitize.js';
import { runCli } from '../helpers/cliIo.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { createToolScriptedModel } from '../helpers/toolModel.js';

const RLO = '\u202e';
/** A control or format character other than line feed and tab. */
// eslint-disable-next-line no-control-regex -- what the test looks for
const RAW = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029\p{Cf}]/u;

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeTree(
    {
      'package.json': JSON.stringify({
        name: `evil${RLO}pkg`,
        description: `A tool ${RLO}live\u0007 with\u200b hidden text`,
        version: '1.0.0',
        main: 'index.js',
        scripts: { start: `node ${RLO}index.js` },
      }),
      'index.js': 'console.log(1);\n',
      'README.md': '# Demo\n',
    },
    'mmi-escaped-',
  );
});
afterAll(async () => {
  await repo.cleanup();
});

/** The host's model over MRTR: its answers (and its name) come back as it wrote them. */
async function runWith(model: ReturnType<typeof createToolScriptedModel>, mode: 'pick' | 'explore') {
  return runLocalSummarize({
    root: repo.root,
    args: { mode },
    logger: silentLogger,
    models: parseModelSpec('host'),
    model,
  });
}

describe('control and format characters are escaped wherever they show', () => {
  it('escapeControls keeps lines and tabs with `multiline`, and escapes the rest', () => {
    expect(escapeControls(`a${RLO}b\nc\td\r\ne\u0007`, undefined, { multiline: true })).toBe('a\\u202eb\nc\td\ne\\x07');
    expect(escapeControls('plain\nlines', undefined, { multiline: true })).toBe('plain\nlines');
  });

  it.each(['pick', 'explore'] as const)(
    '%s mode: package.json fields in the prompts, the dropped entries and the model name',
    async (mode) => {
      const model = createToolScriptedModel((params, turn) => {
        if (mode === 'pick' && params.maxTokens === 400) {
          return {
            raw: {
              role: 'assistant',
              content: { type: 'text', text: JSON.stringify(['index.js', `no${RLO}such\u0007.js`]) },
              model: `evil${RLO}model\u0007`,
            },
          };
        }
        if (mode === 'explore' && turn === 0)
          return { calls: [{ name: 'read_file', input: { path: 'package.json' } }] };
        return {
          raw: {
            role: 'assistant',
            content: { type: 'text', text: 'A summary.' },
            model: `evil${RLO}model\u0007`,
            stopReason: 'endTurn',
          },
        };
      });
      const result: any = await runWith(model, mode);
      expect(result.isError).toBe(false);
      const prompts = model.requests.map((params) => JSON.stringify(params));
      // The facts lines of the prompts: the manifest's name and description, escaped.
      expect(prompts.join('\n')).toContain('evil\\\\u202epkg');
      for (const params of model.requests) {
        const texts = JSON.stringify(params.messages.slice(0, 1));
        expect(RAW.test(JSON.parse(texts)[0].content.text)).toBe(false);
      }
      expect(result.structuredContent.model).toBe('evil\\u202emodel\\x07');
      if (mode === 'pick') {
        expect(result.structuredContent.dropped).toEqual(['no\\u202esuch\\x07.js']);
      }
      expect(RAW.test(JSON.stringify(result.structuredContent.facts))).toBe(false);
    },
  );

  it('`summarize`: the printed text and the printed JSON carry no raw control or format character', async () => {
    const text = await runCli(['summarize', repo.root, '--quiet']);
    expect(text.code).toBe(0);
    expect(RAW.test(text.stdout)).toBe(false);
    expect(text.stdout).toContain('evil\\u202epkg');
    const json = await runCli(['summarize', repo.root, '--json', '--quiet']);
    expect(json.code).toBe(0);
    expect(RAW.test(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout).facts).toBeDefined();
  });
});
