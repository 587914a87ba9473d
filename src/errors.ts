/**
 * Local failures: configuration, CLI, repository access and state handling.
 *
 * Protocol errors cross the wire as the SDK's `ProtocolError`; tool failures the
 * model can act on are `isError: true` results. Everything else is a
 * `ModelInputError` with a string-literal `code` that narrows the type.
 * Messages never carry secrets, key material or prompt content.
 */
export type ModelInputErrorCode =
  | 'config_invalid'
  | 'state_keys_invalid'
  | 'state_rejected'
  | 'store_unavailable'
  | 'root_invalid'
  | 'path_outside_root'
  | 'repo_unreadable'
  | 'model_failed'
  | 'workflow_invalid'
  | 'audit_report_invalid'
  | 'usage';

export class ModelInputError<C extends ModelInputErrorCode = ModelInputErrorCode> extends Error {
  override name = 'ModelInputError';
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isModelInputError(value: unknown): value is ModelInputError {
  return value instanceof ModelInputError;
}
