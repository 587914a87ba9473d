/** Workflow validation: YAML and JSON in, a whole workflow or an error naming every bad field. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { loadAuditReport, MAX_AUDIT_REPORT_BYTES } from '../../src/plan/auditReport.js';
import { loadWorkflowFile, MAX_WORKFLOW_BYTES, parseWorkflow } from '../../src/plan/loadWorkflow.js';
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
    [
      'tools on a deterministic step',
      (w: any) => (w.steps[0].tools = { names: ['read_file'] }),
      'steps[0].tools',
      'is only allowed on a model step',
    ],
    [
      'a tool loop of one round (no room for the final toolChoice none)',
      (w: any) => (w.steps[1].tools = { maxRounds: 1 }),
      'steps[1].tools.maxRounds',
      'must be >= 2',
    ],
    [
      'a tool name with a space',
      (w: any) => (w.steps[1].tools = { names: ['read file'] }),
      'steps[1].tools.names[0]',
      'must match ^[A-Za-z0-9_.-]{1,128}$',
    ],
    [
      'an unknown tool loop bound',
      (w: any) => (w.steps[1].tools = { maxSeconds: 30 }),
      'steps[1].tools.maxSeconds',
      'is not a known field',
    ],
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

  it('rejects duplicate JSON keys like duplicate YAML keys, naming each one', () => {
    const text = JSON.stringify(validWorkflow())
      .replace('{"version":1,', '{"version":1,"version":1,')
      .replace('"arguments":{"type":"object"', '"arguments":{"type":"object","type":"object"');
    expect(issuesOf(text, 'w.json')).toEqual([
      { field: 'version', message: "is a duplicate key: 'version' appears more than once in the same object" },
      { field: 'tool.arguments.type', message: "is a duplicate key: 'type' appears more than once in the same object" },
    ]);
    const inArray = JSON.stringify(validWorkflow()).replace('"name":"judge",', '"name":"judge","name":"judge",');
    expect(issuesOf(inArray, 'w.json').map((issue) => issue.field)).toEqual(['steps[1].name']);
    // Keys are compared decoded; the same key in sibling objects is fine.
    const escaped = JSON.stringify(validWorkflow()).replace('"name":"judge",', '"name":"judge","n\\u0061me":"judge",');
    expect(issuesOf(escaped, 'w.json').map((issue) => issue.field)).toEqual(['steps[1].name']);
    expect(
      parseWorkflow(JSON.stringify(validWorkflow()).replace('"kind"', '"k\\u0069nd"'), 'w.json').steps,
    ).toHaveLength(2);
  });

  it('caps YAML aliases at 100 expansions (billion laughs)', () => {
    const withAliases = (count: number) =>
      `${stringify(validWorkflow())}limits: {}\n`.replace(
        'state:\n  secret: false\n',
        `state:\n  secret: false\n  carries: [&c phase, ${Array(count).fill('*c').join(', ')}]\n`,
      );
    expect(parseWorkflow(withAliases(99), 'w.yaml').state.carries).toHaveLength(100);
    expect(issuesOf(withAliases(100), 'w.yaml')).toEqual([
      { field: '(file)', message: expect.stringMatching(/alias count/) },
    ]);
    const laughs = Array.from(
      { length: 9 },
      (_, level) => `a${level + 1}: &a${level + 1} [${Array(10).fill(`*a${level}`).join(',')}]`,
    );
    expect(issuesOf(['a0: &a0 [x,x,x,x,x,x,x,x,x,x]', ...laughs, 'version: 1'].join('\n'), 'w.yaml')).toEqual([
      { field: '(file)', message: expect.stringMatching(/alias count/) },
    ]);
  });

  it('refuses deep nesting before validating (validation recurses), in JSON and YAML alike', () => {
    const nested = (levels: number) => {
      const workflow = validWorkflow();
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < levels; level++) schema = { not: schema };
      workflow.steps[1].output = { schema };
      return workflow;
    };
    expect(parseWorkflow(JSON.stringify(nested(50)), 'w.json').steps).toHaveLength(2);
    const deep = [{ field: '(file)', message: 'nests deeper than 64 levels' }];
    expect(issuesOf(nested(60))).toEqual(deep);
    expect(issuesOf(stringify(nested(60)), 'w.yaml')).toEqual(deep);
    const chain = `${'{"not":'.repeat(100_000)}{"type":"string"}${'}'.repeat(100_000)}`;
    const text = JSON.stringify(nested(0)).replace('"schema":{"type":"string"}', `"schema":${chain}`);
    expect(issuesOf(text, 'w.json')).toEqual(deep);
  });

  it('compiles embedded schemas apart: the same $id twice, in one file or in two parses, is fine', () => {
    const workflow = validWorkflow();
    workflow.tool.arguments = { $id: 'https://example.com/args.json', type: 'object' };
    workflow.steps[1].output = { schema: { $id: 'https://example.com/args.json', type: 'object' } };
    const text = JSON.stringify(workflow);
    expect(parseWorkflow(text, 'w.json').tool.arguments.$id).toBe('https://example.com/args.json');
    expect(parseWorkflow(text, 'w.json').tool.arguments.$id).toBe('https://example.com/args.json');
    workflow.tool.arguments.properties = { a: { $ref: 'https://example.com/missing.json' } };
    expect(issuesOf(workflow)).toEqual([
      { field: 'tool.arguments', message: expect.stringMatching(/^is not a usable JSON Schema \(can't resolve/) },
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
  });

  const fileIssues = async (path: string) =>
    loadWorkflowFile(path).then(
      () => {
        throw new Error(`expected ${path} to be rejected`);
      },
      (error: unknown) => (error as WorkflowInvalidError).issues,
    );

  it('tells a missing file, a directory and a FIFO apart, and never blocks on the FIFO', async () => {
    expect(await fileIssues(join(dir, 'missing.yaml'))).toEqual([{ field: '(file)', message: 'does not exist' }]);
    await mkdir(join(dir, 'folder.yaml'));
    expect(await fileIssues(join(dir, 'folder.yaml'))).toEqual([
      { field: '(file)', message: 'is a directory, not a file' },
    ]);
    if (process.platform !== 'win32') {
      const fifo = join(dir, 'pipe.yaml');
      execFileSync('mkfifo', [fifo]);
      expect(await fileIssues(fifo)).toEqual([{ field: '(file)', message: 'is not a regular file' }]);
    }
  });

  it('accepts exactly 1 MiB and rejects one byte more, from the size on disk before reading', async () => {
    const text = JSON.stringify(validWorkflow());
    const exact = text + ' '.repeat(MAX_WORKFLOW_BYTES - Buffer.byteLength(text));
    await writeFile(join(dir, 'exact.json'), exact);
    await writeFile(join(dir, 'over.json'), `${exact} `);
    expect((await loadWorkflowFile(join(dir, 'exact.json'))).tool.name).toBe('demo');
    expect(parseWorkflow(exact, 'exact.json').tool.name).toBe('demo');
    const tooLarge = [{ field: '(file)', message: 'is larger than 1048576 bytes' }];
    expect(await fileIssues(join(dir, 'over.json'))).toEqual(tooLarge);
    expect(issuesOf(`${exact} `, 'over.json')).toEqual(tooLarge);
    // A sparse 3 GiB file: rejected from its size, never read (reading it whole would fail differently).
    const huge = join(dir, 'huge.yaml');
    await writeFile(huge, '');
    await truncate(huge, 3 * 1024 ** 3);
    expect(await fileIssues(huge)).toEqual(tooLarge);
    await rm(huge);
  });

  it('reads only UTF-8: Latin-1 bytes are rejected, a byte order mark is accepted', async () => {
    const yaml = stringify(validWorkflow()).replace('A demo tool.', 'Zählt Zeilen.');
    await writeFile(join(dir, 'latin1.yaml'), Buffer.from(yaml, 'latin1'));
    expect(await fileIssues(join(dir, 'latin1.yaml'))).toEqual([{ field: '(file)', message: 'is not UTF-8' }]);
    await writeFile(join(dir, 'utf8.yaml'), yaml);
    expect((await loadWorkflowFile(join(dir, 'utf8.yaml'))).tool.description).toBe('Zählt Zeilen.');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(validWorkflow()))]);
    await writeFile(join(dir, 'bom.json'), bom);
    expect((await loadWorkflowFile(join(dir, 'bom.json'))).tool.name).toBe('demo');
    expect(parseWorkflow(`\uFEFF${JSON.stringify(validWorkflow())}`, 'w.json').tool.name).toBe('demo');
  });

  it('applies the same limits to audit reports', async () => {
    await writeFile(join(dir, 'report.json'), Buffer.from('{"format":"é"}', 'latin1'));
    await expect(loadAuditReport(join(dir, 'report.json'))).rejects.toThrow(/report\.json is not UTF-8$/);
    await writeFile(join(dir, 'big-report.json'), ' '.repeat(MAX_AUDIT_REPORT_BYTES + 1));
    await expect(loadAuditReport(join(dir, 'big-report.json'))).rejects.toThrow(/is larger than 1048576 bytes$/);
    await expect(loadAuditReport(dir)).rejects.toThrow(/is a directory, not a file$/);
    await expect(loadAuditReport(join(dir, 'nope.json'))).rejects.toThrow(/nope\.json does not exist$/);
    await writeFile(join(dir, 'deep-report.json'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    await expect(loadAuditReport(join(dir, 'deep-report.json'))).rejects.toThrow(/nests deeper than 64 levels$/);
  });
});
