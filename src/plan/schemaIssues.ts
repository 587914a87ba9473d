/** Turns Ajv errors into issues that name the field, in words a workflow author can act on. */
import type { ErrorObject } from 'ajv';

import type { WorkflowIssue } from './workflowInvalidError.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `/steps/1/budget/maxTokens` -> `steps[1].budget.maxTokens`; the root is `(workflow)`. */
export function fieldPath(pointer: string, child?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  if (child !== undefined) segments.push(child);
  let path = '';
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path === '' ? '(workflow)' : path;
}

function describe(error: ErrorObject): WorkflowIssue | undefined {
  const at = (child?: string) => fieldPath(error.instancePath, child);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'if':
      return undefined; // the failing `then` branch says what is wrong
    case 'required': {
      const missing = String(params['missingProperty']);
      const modelOnly = /^\/steps\/\d+$/.test(error.instancePath) && ['inputKey', 'output', 'budget'].includes(missing);
      if (/clientModel$/.test(error.instancePath) && missing === 'reason') {
        return { field: at(missing), message: 'is required when clientModel.required is true: state the requirement' };
      }
      return { field: at(missing), message: modelOnly ? 'is required for a model step' : 'is required' };
    }
    case 'additionalProperties':
      return { field: at(String(params['additionalProperty'])), message: 'is not a known field' };
    case 'false schema':
      return { field: at(), message: 'is only allowed on a model step' };
    case 'type':
      return { field: at(), message: `must be ${String(params['type']).replaceAll(',', ' or ')}` };
    case 'enum':
      return {
        field: at(),
        message: `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { field: at(), message: `must be ${JSON.stringify(params['allowedValue'])}` };
    case 'minimum':
    case 'maximum':
      return { field: at(), message: `must be ${String(params['comparison'])} ${String(params['limit'])}` };
    case 'minLength':
      return { field: at(), message: 'must not be empty' };
    case 'minItems':
      return {
        field: at(),
        message: `needs at least ${String(params['limit'])} entr${params['limit'] === 1 ? 'y' : 'ies'}`,
      };
    case 'maxItems':
      return { field: at(), message: `allows at most ${String(params['limit'])} entries` };
    case 'uniqueItems':
      return { field: at(), message: 'has duplicate entries' };
    case 'minProperties':
    case 'maxProperties':
      return { field: at(), message: "needs exactly one of 'schema' or 'text'" };
    case 'pattern':
      return { field: at(), message: `must match ${String(params['pattern'])}` };
    default:
      return { field: at(), message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Issues in schema order, without duplicates. */
export function issuesFromAjv(errors: readonly ErrorObject[] | null | undefined): WorkflowIssue[] {
  const seen = new Set<string>();
  const issues: WorkflowIssue[] = [];
  for (const error of errors ?? []) {
    const issue = describe(error);
    if (issue === undefined) continue;
    const key = `${issue.field}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
