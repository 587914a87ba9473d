/**
 * A server-owned model call that failed: the provider refused the credentials, kept rate-limiting,
 * timed out, answered something unusable, or the tool call's model budget ran out.
 *
 * The message and the hint are ours: they never carry the provider's own error text (which can
 * echo a masked key or parts of the request), the prompt, or credentials.
 */
import { ModelInputError } from '../errors.js';

export type ModelProviderFailure =
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'refused'
  | 'bad_response'
  | 'budget_exceeded'
  | 'deadline_exceeded';

export interface ModelProviderErrorOptions {
  /** The model as configured, e.g. `openai:gpt-5.4-mini`. */
  model: string;
  /** What the operator or the caller can do about it. */
  hint: string;
  status?: number;
  cause?: unknown;
}

export class ModelProviderError extends ModelInputError<'model_failed'> {
  override name = 'ModelProviderError';
  readonly failure: ModelProviderFailure;
  readonly model: string;
  readonly hint: string;
  readonly status: number | undefined;

  constructor(failure: ModelProviderFailure, message: string, options: ModelProviderErrorOptions) {
    super('model_failed', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.failure = failure;
    this.model = options.model;
    this.hint = options.hint;
    this.status = options.status;
  }
}

/**
 * The tool call's model calls ran out of time (`--model-deadline`): now, or — with `last`, the
 * failure a retry would have followed — before the wait for that retry could end.
 */
export function deadlineExceeded(model: string, totalMs: number, last?: ModelProviderError): ModelProviderError {
  const budget = `the ${Math.ceil(totalMs / 1000)} s this tool call may spend on model calls`;
  const hint = 'raise --model-deadline on the server if the provider is just slow';
  if (last === undefined) {
    return new ModelProviderError('deadline_exceeded', `${model}: ${budget} ran out`, {
      model,
      hint: `try again later, or ${hint}`,
    });
  }
  return new ModelProviderError('deadline_exceeded', `${last.message}; waiting to retry would pass ${budget}`, {
    model: last.model,
    hint: `${last.hint}; or ${hint}`,
    ...(last.status !== undefined && { status: last.status }),
    cause: last,
  });
}

export function isModelProviderError(value: unknown): value is ModelProviderError {
  return value instanceof ModelProviderError;
}
