/**
 * Reads a workflow file (YAML or JSON), validates it against the published schema, then checks
 * what a schema cannot say (unique names and keys, usable embedded schemas, a round cap that fits).
 * Either a whole `Workflow` comes back, or a `WorkflowInvalidError` naming every bad field.
 */
import { readFile } from 'node:fs/promises';

import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';

import { issuesFromAjv } from './schemaIssues.js';
import { isModelStep, type Workflow } from './workflow.js';
import { WorkflowInvalidError, type WorkflowIssue } from './workflowInvalidError.js';
import { WORKFLOW_SCHEMA } from './workflowSchema.js';

export const MAX_WORKFLOW_BYTES = 1024 * 1024;

const validateWorkflow = new Ajv2020({
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
}).compile(WORKFLOW_SCHEMA as unknown as Record<string, unknown>);
/** Embedded schemas (tool arguments, step outputs) are checked as schemas, leniently. */
const embedded = new Ajv2020({ strict: false, allErrors: false });

function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  try {
    embedded.compile(rest);
    return undefined;
  } catch (error) {
    return `is not a usable JSON Schema (${(error as Error).message.split('\n')[0]})`;
  }
}

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function semanticIssues(workflow: Workflow): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const names = new Map<string, number>();
  const keys = new Map<string, number>();
  workflow.steps.forEach((step, index) => {
    const sameName = names.get(step.name);
    if (sameName !== undefined) {
      issues.push({ field: `steps[${index}].name`, message: `duplicates steps[${sameName}].name '${step.name}'` });
    } else names.set(step.name, index);
    if (!isModelStep(step)) return;
    const sameKey = keys.get(step.inputKey);
    if (sameKey !== undefined) {
      issues.push({ field: `steps[${index}].inputKey`, message: `duplicates steps[${sameKey}].inputKey` });
    } else keys.set(step.inputKey, index);
    if ('schema' in step.output) {
      const problem = schemaProblem(step.output.schema);
      if (problem !== undefined) issues.push({ field: `steps[${index}].output.schema`, message: problem });
    }
  });
  const argumentsProblem = schemaProblem(workflow.tool.arguments);
  if (argumentsProblem !== undefined) issues.push({ field: 'tool.arguments', message: argumentsProblem });
  const maxRounds = workflow.limits?.maxRounds;
  if (maxRounds !== undefined && maxRounds < keys.size) {
    issues.push({ field: 'limits.maxRounds', message: `must allow at least ${keys.size} rounds (one per model step)` });
  }
  const date = workflow.removal?.date;
  if (date !== undefined && !isCalendarDate(date)) {
    issues.push({ field: 'removal.date', message: `'${date}' is not a calendar date (YYYY-MM-DD)` });
  }
  return issues;
}

function parseText(text: string, source: string): unknown {
  if (/\.json$/i.test(source)) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new WorkflowInvalidError(source, [
        { field: '(file)', message: `is not JSON: ${(error as Error).message}` },
      ]);
    }
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (document.errors.length > 0) {
    const issues = document.errors.map((error) => ({
      field: '(file)',
      message: `is not valid YAML: ${error.message.split('\n')[0]}`,
    }));
    throw new WorkflowInvalidError(source, issues);
  }
  try {
    return document.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new WorkflowInvalidError(source, [{ field: '(file)', message: (error as Error).message }]);
  }
}

/** Parses and validates workflow text; `source` names it in errors and picks JSON for `*.json`. */
export function parseWorkflow(text: string, source: string): Workflow {
  if (Buffer.byteLength(text, 'utf8') > MAX_WORKFLOW_BYTES) {
    throw new WorkflowInvalidError(source, [
      { field: '(file)', message: `is larger than ${MAX_WORKFLOW_BYTES} bytes` },
    ]);
  }
  const value = parseText(text, source);
  if (!validateWorkflow(value)) throw new WorkflowInvalidError(source, issuesFromAjv(validateWorkflow.errors));
  const workflow = value as unknown as Workflow;
  const issues = semanticIssues(workflow);
  if (issues.length > 0) throw new WorkflowInvalidError(source, issues);
  return workflow;
}

export async function loadWorkflowFile(path: string): Promise<Workflow> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new WorkflowInvalidError(path, [{ field: '(file)', message: 'cannot be read' }], { cause: error });
  }
  return parseWorkflow(text, path);
}
