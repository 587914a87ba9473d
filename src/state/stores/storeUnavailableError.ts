import { ModelInputError } from '../../errors.js';

/** The shared store did not answer (Redis down, timed out, not yet connected). Callers fail closed. */
export class StoreUnavailableError extends ModelInputError<'store_unavailable'> {
  override name = 'StoreUnavailableError';

  constructor(store: string, options?: { cause?: unknown }) {
    super('store_unavailable', `shared store ${store} is unreachable`, options);
  }
}

export function isStoreUnavailableError(value: unknown): value is StoreUnavailableError {
  return value instanceof StoreUnavailableError;
}
