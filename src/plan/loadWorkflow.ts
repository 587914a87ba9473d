/**
 * Reads a workflow file (YAML or JSON), validates it against the published schema, then checks
 * what a schema cannot say (unique names and keys, usable embedded schemas, a round cap that fits).
 * Either a whole `Workflow` comes back, or a `WorkflowInvalidError` naming every bad field.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';

import { nestsDeeperThan, parseJsonText } from './jsonText.js';
import { readInputFile } from './readInput.js';
import { fieldPath, issuesFromAjv } from './schemaIssues.js';
import { isModelStep, type Workflow } from './workflow.js';
import { WorkflowInvalidError, type WorkflowIssue } from './workflowInvalidError.js';
import { WORKFLOW_SCHEMA } from './workflowSchema.js';

export const MAX_WORKFLOW_BYTES = 1024 * 1024;
export const MAX_YAML_ALIASES = 100;
/** Objects and arrays nested deeper than this are refused before validation (which recurses). */
export const MAX_WORKFLOW_DEPTH = 64;

const validateWorkflow = new Ajv2020({
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
}).compile(WORKFLOW_SCHEMA as unknown as Record<string, unknown>);

/** Embedded schemas (tool arguments, step outputs) are checked against the 2020-12 meta-schema, leniently. */
const metaAjv = new Ajv2020({ strict: false, allErrors: false });
const validateMetaSchema = metaAjv.getSchema('https://json-schema.org/draft/2020-12/schema');

/**
 * Undefined when `schema` is a usable JSON Schema, else why not. Each schema compiles in its own
 * throwaway Ajv, so `$id`s never collide across schemas, files or repeated calls.
 */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  if (validateMetaSchema !== undefined && !validateMetaSchema(rest)) {
    const first = metaAjv.errorsText(validateMetaSchema.errors?.slice(0, 1), { dataVar: 'schema' });
    return `is not a usable JSON Schema (${first})`;
  }
  try {
    new Ajv2020({ strict: false, allErrors: false, validateSchema: false }).compile(rest);
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
    const parsed = parseJsonText(text);
    if (parsed.ok) return parsed.value;
    if ('syntax' in parsed) {
      throw new WorkflowInvalidError(source, [{ field: '(file)', message: `is not JSON: ${parsed.syntax}` }]);
    }
    throw new WorkflowInvalidError(
      source,
      parsed.duplicates.map(({ pointer, key }) => ({
        field: fieldPath(pointer, key),
        message: `is a duplicate key: '${key}' appears more than once in the same object`,
      })),
    );
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
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (error) {
    throw new WorkflowInvalidError(source, [{ field: '(file)', message: (error as Error).message }]);
  }
}

/** Validates an already parsed workflow value; `source` names it in errors. */
export function validateWorkflowValue(value: unknown, source: string): Workflow {
  if (!validateWorkflow(value)) throw new WorkflowInvalidError(source, issuesFromAjv(validateWorkflow.errors));
  const workflow = value as unknown as Workflow;
  const issues = semanticIssues(workflow);
  if (issues.length > 0) throw new WorkflowInvalidError(source, issues);
  return workflow;
}

/** Parses and validates workflow text; `source` names it in errors and picks JSON for `*.json`. */
export function parseWorkflow(text: string, source: string): Workflow {
  if (Buffer.byteLength(text, 'utf8') > MAX_WORKFLOW_BYTES) {
    throw new WorkflowInvalidError(source, [
      { field: '(file)', message: `is larger than ${MAX_WORKFLOW_BYTES} bytes` },
    ]);
  }
  const value = parseText(text, source);
  if (nestsDeeperThan(value, MAX_WORKFLOW_DEPTH)) {
    throw new WorkflowInvalidError(source, [
      { field: '(file)', message: `nests deeper than ${MAX_WORKFLOW_DEPTH} levels` },
    ]);
  }
  return validateWorkflowValue(value, source);
}

/** Reads a workflow file: a regular file of at most MAX_WORKFLOW_BYTES of UTF-8, checked before parsing. */
export async function loadWorkflowFile(path: string): Promise<Workflow> {
  const input = await readInputFile(path, MAX_WORKFLOW_BYTES);
  if (!input.ok) {
    throw new WorkflowInvalidError(path, [{ field: '(file)', message: input.problem }], { cause: input.cause });
  }
  return parseWorkflow(input.text, path);
}
