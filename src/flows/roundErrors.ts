/**
 * The two invalid-params failures of an MRTR retry, as typed protocol errors: they cross the wire
 * as -32602 like any `ProtocolError`, and code that serves the same flow another way (the legacy
 * adapter turns them into tool results) tells them apart by class, never by parsing a message.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The one fixed message of a rejected `requestState`: no oracle for why (the reason is logged), but
 * it says what to do.
 */
export const REJECTED_STATE_MESSAGE =
  'Invalid or expired requestState: start the call again without requestState (and without inputResponses)';

/** The echoed `requestState` failed verification (tampered, expired, mis-bound, unknown key). */
export class RequestStateRejectedError extends ProtocolError {
  override name = 'RequestStateRejectedError';

  constructor() {
    super(ProtocolErrorCode.InvalidParams, REJECTED_STATE_MESSAGE);
  }
}

/** One entry of `inputResponses` is malformed or unusable; `key` names it, `reason` says why. */
export class InputResponseError extends ProtocolError {
  override name = 'InputResponseError';
  readonly key: string;
  readonly reason: string;

  /** `message` replaces the default `inputResponses.<key>: <reason>` (the `data` stays `{key, reason}`). */
  constructor(key: string, reason: string, message = `inputResponses.${key}: ${reason}`) {
    super(ProtocolErrorCode.InvalidParams, message, { key, reason });
    this.key = key;
    this.reason = reason;
  }
}
