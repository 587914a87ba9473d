import { ModelInputError } from '../errors.js';

/** Why a request-state token was refused. Safe to log: carries no token content. */
export type StateRejectReason =
  | 'malformed'
  | 'unknown_key'
  | 'bad_tag'
  | 'expired'
  | 'principal'
  | 'method'
  | 'tool'
  | 'arguments'
  | 'oversize'
  /** Authentic and in time, but already accepted by an earlier round (on any instance sharing the store). */
  | 'replayed';

/** A request-state token failed to seal or open. The message names only the reason. */
export class StateRejectedError extends ModelInputError<'state_rejected'> {
  override name = 'StateRejectedError';
  readonly reason: StateRejectReason;

  constructor(reason: StateRejectReason, options?: { cause?: unknown }) {
    super('state_rejected', `request state rejected: ${reason}`, options);
    this.reason = reason;
  }
}

export function isStateRejectedError(value: unknown): value is StateRejectedError {
  return value instanceof StateRejectedError;
}
