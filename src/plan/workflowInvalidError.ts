import { ModelInputError } from '../errors.js';

/** One problem in a workflow file, named by its field path (e.g. `steps[1].budget.maxTokens`). */
export interface WorkflowIssue {
  field: string;
  message: string;
}

/** A workflow file that cannot be planned: every issue names the field it is about. */
export class WorkflowInvalidError extends ModelInputError<'workflow_invalid'> {
  override name = 'WorkflowInvalidError';
  readonly issues: readonly WorkflowIssue[];

  constructor(source: string, issues: readonly WorkflowIssue[], options?: { cause?: unknown }) {
    const lines = issues.map((issue) => `  ${issue.field}: ${issue.message}`);
    super('workflow_invalid', `${source} is not a valid workflow:\n${lines.join('\n')}`, options);
    this.issues = issues;
  }
}
