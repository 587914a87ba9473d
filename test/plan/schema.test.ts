/** The published JSON Schema: identical to the one the CLI validates with, and valid for every example. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { Ajv2020 } from 'ajv/dist/2020.js';
import prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { prettyJson } from '../../src/plan/prettyJson.js';
import { WORKFLOW_SCHEMA } from '../../src/plan/workflowSchema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = ['summarize-repo', 'count-lines', 'every-hard-reject', 'every-refusal'];

describe('schemas/workflow.schema.json', () => {
  it('is byte for byte what `plan --schema` prints (regenerate with: node dist/cli.js plan --schema)', async () => {
    expect(await readFile(`${ROOT}schemas/workflow.schema.json`, 'utf8')).toBe(prettyJson(WORKFLOW_SCHEMA));
  });

  it('validates every example workflow on its own, and rejects a broken one naming the path', async () => {
    const schema = JSON.parse(await readFile(`${ROOT}schemas/workflow.schema.json`, 'utf8')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    for (const name of EXAMPLES) {
      const workflow = parse(await readFile(`${ROOT}examples/plans/${name}.yaml`, 'utf8')) as Record<string, any>;
      expect(validate(workflow), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      delete workflow['steps'][0]['purpose'];
      expect(validate(workflow)).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ instancePath: '/steps/0', params: { missingProperty: 'purpose' } });
    }
  });
});

describe('prettyJson', () => {
  const samples: unknown[] = [
    { a: [], b: {}, c: [1, 2, 3], d: ['x', 'y'], e: null, f: true, g: 'text' },
    { nested: { deeper: { list: [{ a: 1 }, { b: 2 }], empty: [{}] } } },
    {
      matrix: [
        [1, 2],
        [3, 4],
      ],
      single: [[1, 2]],
      mixed: [1, 'two', null, false],
    },
    { long: Array.from({ length: 40 }, (_, index) => `item-${index}`) },
    { numbers: Array.from({ length: 60 }, (_, index) => index * 1000) },
    [{ a: 1, b: 2 }, 'x'],
    { edge: 'x'.repeat(90), list: ['a'.repeat(50), 'b'.repeat(50)] },
    { keys: { 'with space': 1, 'quote"d': 2, unicode: 'é—ü' } },
    WORKFLOW_SCHEMA,
  ];
  it.each(samples.map((sample, index) => [index, sample]))(
    'sample %i is what Prettier prints',
    async (_index, sample) => {
      const text = prettyJson(sample);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(sample)));
      expect(await prettier.format(text, { parser: 'json', printWidth: 120 })).toBe(text);
    },
  );
});
