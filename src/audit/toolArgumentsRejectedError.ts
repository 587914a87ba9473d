import { ModelInputError } from '../errors.js';

/**
 * The audited tool refused the arguments it was given (-32602 on the first call that declared
 * sampling): a problem with the audit's input, not a rule the server broke.
 */
export class ToolArgumentsRejectedError extends ModelInputError<'usage'> {
  override name = 'ToolArgumentsRejectedError';
  readonly tool: string;
  readonly arguments: Record<string, unknown>;

  constructor(tool: string, args: Record<string, unknown>, detail: string) {
    super('usage', `${tool} rejects the arguments ${JSON.stringify(args)}: ${detail}`);
    this.tool = tool;
    this.arguments = args;
  }
}
