/**
 * The host's local failures: a call the runtime stopped on purpose (a policy said no) or could not
 * finish (the server broke the protocol, the model failed). `code` narrows the type; `detail`
 * carries what a caller needs for diagnosis (never prompt or response text).
 */
export type HostErrorCode =
  /** The server embedded a request for a capability the host did not declare (or `sampling.tools`). */
  | 'capability_undeclared'
  /** The server embedded a request method the host does not fulfil (anything but sampling, elicitation, roots). */
  | 'request_unsupported'
  /** A malformed embedded request, or one outside the request limits (maxTokens, sizes, priorities). */
  | 'request_invalid'
  /** `includeContext` other than `"none"`: the server asked for context it must not see. */
  | 'covert_context'
  /** The user (or the rules, or `--approve deny`) refused; the call stops without a retry. */
  | 'approval_denied'
  /** More `input_required` rounds than the cap; `detail.lastResult` keeps the last one. */
  | 'rounds_exceeded'
  /** Tokens or bytes past the per-round or per-call budget. */
  | 'budget_exceeded'
  /** The per-server (or per-principal) token bucket is empty and the wait would be too long. */
  | 'rate_limited'
  /** The model's answer is too large or malformed to send back. */
  | 'response_invalid'
  /** The server's `requestState` is larger than the host carries. */
  | 'state_too_large'
  /** The host's model failed. */
  | 'model_failed'
  /** The server broke the protocol or answered with a JSON-RPC error; connection failures too. */
  | 'protocol_error'
  /** The call was cancelled: by the caller (Ctrl-C, its signal), or its task by the server. */
  | 'cancelled';

export interface HostErrorDetail {
  /** The input key concerned, when one is. */
  key?: string;
  /** The 1-based round the call was in. */
  round?: number;
  /** For `rounds_exceeded`: the last `input_required` result (keys and methods; the state's size). */
  lastResult?: { inputRequests: Record<string, { method: string }>; requestStateBytes?: number };
  /** For `protocol_error` from a JSON-RPC error: its code. */
  rpcCode?: number;
}

export class HostError<C extends HostErrorCode = HostErrorCode> extends Error {
  override name = 'HostError';
  readonly code: C;
  readonly detail: HostErrorDetail;

  constructor(code: C, message: string, detail: HostErrorDetail = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.detail = detail;
  }
}

export function isHostError(value: unknown): value is HostError {
  return value instanceof HostError;
}
