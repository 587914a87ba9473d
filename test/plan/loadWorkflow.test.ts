/** Workflow validation: YAML and JSON in, a whole workflow or an error naming every bad field. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { loadWorkflowFile, parseWorkflow } from '../../src/plan/loadWorkflow.js';
import { WorkflowInvalidError, type WorkflowIssue } from '../../src/plan/workflowInvalidError.js';
import { CLI } from '../helpers/rawChannel.js';
import { validWorkflow } from './workflows.js';

const run = promisify(execFile);

function issuesOf(value: unknown, source = 'w.json'): WorkflowIssue[] {
  try {
    parseWorkflow(typeof value === 'string' ? value : JSON.stringify(value), source);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowInvalidError);
    expect((error as WorkflowInvalidError).code).toBe('workflow_invalid');
    return [...(error as WorkflowInvalidError).issues];
  }
  throw new Error('expected the workflow to be rejected');
}

describe('parseWorkflow', () => {
  it('accepts the same workflow as YAML and as JSON', () => {
    const fromJson = parseWorkflow(JSON.stringify(validWorkflow()), 'w.json');
    const fromYaml = parseWorkflow(stringify(validWorkflow()), 'w.yaml');
    expect(fromYaml).toEqual(fromJson);
    expect(fromJson.steps[1]).toMatchObject({ kind: 'model', inputKey: 'judge' });
  });

  it.each([
    [
      'a missing budget on a model step',
      (w: any) => delete w.steps[1].budget,
      'steps[1].budget',
      'is required for a model step',
    ],
    ['a zero token budget', (w: any) => (w.steps[1].budget.maxTokens = 0), 'steps[1].budget.maxTokens', 'must be >= 1'],
    [
      'a model field on a deterministic step',
      (w: any) => (w.steps[0].inputKey = 'x'),
      'steps[0].inputKey',
      'is only allowed on a model step',
    ],
    [
      'both output forms',
      (w: any) => (w.steps[1].output.text = 'prose'),
      'steps[1].output',
      "needs exactly one of 'schema' or 'text'",
    ],
    [
      'an unknown step kind',
      (w: any) => (w.steps[0].kind = 'llm'),
      'steps[0].kind',
      'must be one of "deterministic", "model"',
    ],
    [
      'a misspelt field',
      (w: any) => (w.requirements.clientModell = {}),
      'requirements.clientModell',
      'is not a known field',
    ],
    [
      'a requirement without a reason',
      (w: any) => (w.requirements.clientModel.required = true),
      'requirements.clientModel.reason',
      'is required when clientModel.required is true: state the requirement',
    ],
    [
      'an unknown revision',
      (w: any) => (w.requirements.clientRevisions = ['2025-06-18']),
      'requirements.clientRevisions[0]',
      'must be one of "2026-07-28", "2025-11-25"',
    ],
    [
      'arguments that are not an object schema',
      (w: any) => (w.tool.arguments = { type: 'array' }),
      'tool.arguments.type',
      'must be "object"',
    ],
    ['a non-boolean secret flag', (w: any) => (w.state.secret = 'no'), 'state.secret', 'must be boolean'],
    ['a missing state', (w: any) => delete w.state, 'state', 'is required'],
    [
      'a null round cap in a client loop without other fields',
      (w: any) => (w.design = { clientLoop: { roundCap: null } }),
      'design.clientLoop.approval',
      'is required',
    ],
    ['a long state lifetime', (w: any) => (w.state.ttlSeconds = 86_400), 'state.ttlSeconds', 'must be <= 3600'],
  ])('names the field for %s', (_label, mutate, field, message) => {
    const workflow = validWorkflow();
    mutate(workflow);
    expect(issuesOf(workflow)).toContainEqual({ field, message });
  });

  it('reports every problem at once, in schema order', () => {
    const workflow = validWorkflow();
    workflow.version = 2;
    delete workflow.tool.description;
    workflow.steps[1].budget.maxTokens = 'many';
    expect(issuesOf(workflow).map((issue) => issue.field)).toEqual([
      'version',
      'tool.description',
      'steps[1].budget.maxTokens',
    ]);
  });

  it('checks what the schema cannot: unique names and keys, usable schemas, dates, the round cap', () => {
    const workflow = validWorkflow();
    const judge = () => structuredClone(validWorkflow().steps[1]);
    workflow.steps.push({ ...judge(), inputKey: 'judge_again' }, { ...judge(), name: 'other' });
    workflow.steps[1].output = { schema: { type: 'no-such-type' } };
    workflow.limits = { maxRounds: 1 };
    workflow.removal = { date: '2027-02-30' };
    expect(issuesOf(workflow)).toEqual([
      { field: 'steps[1].output.schema', message: expect.stringMatching(/^is not a usable JSON Schema \(/) },
      { field: 'steps[2].name', message: "duplicates steps[1].name 'judge'" },
      { field: 'steps[3].inputKey', message: 'duplicates steps[1].inputKey' },
      { field: 'limits.maxRounds', message: 'must allow at least 2 rounds (one per model step)' },
      { field: 'removal.date', message: "'2027-02-30' is not a calendar date (YYYY-MM-DD)" },
    ]);
  });

  it('rejects unparsable files, duplicate YAML keys and non-objects with a (file) issue', () => {
    expect(issuesOf('{"version": 1,', 'w.json')[0]).toMatchObject({
      field: '(file)',
      message: expect.stringMatching(/^is not JSON/),
    });
    expect(issuesOf('version: 1\nversion: 1\n', 'w.yaml')[0]).toMatchObject({
      field: '(file)',
      message: expect.stringMatching(/^is not valid YAML/),
    });
    expect(issuesOf('- a\n- b\n', 'w.yaml')).toEqual([{ field: '(workflow)', message: 'must be object' }]);
  });
});

describe('plan FILE with bad input', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mmi-plan-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints nothing on stdout, names the fields on stderr, and exits 2', async () => {
    const workflow = validWorkflow();
    delete workflow.steps[1].budget;
    const file = join(dir, 'bad.yaml');
    await writeFile(file, stringify(workflow));
    const failure = await run(process.execPath, [CLI, 'plan', file]).catch((error: unknown) => error as any);
    expect(failure.code).toBe(2);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toContain(`${file} is not a valid workflow:`);
    expect(failure.stderr).toContain('steps[1].budget: is required for a model step');
    await expect(loadWorkflowFile(join(dir, 'missing.yaml'))).rejects.toMatchObject({
      issues: [{ field: '(file)', message: 'cannot be read' }],
    });
  });
});
