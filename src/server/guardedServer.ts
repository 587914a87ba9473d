/**
 * The SDK's low-level `Server` with one rule for failures nobody planned: a handler that throws anything but a
 * `ProtocolError` answers -32603 with the fixed message `Internal error`. The SDK would put the exception's own
 * text on the wire (a host path, a library's message, a stack-depth error); here the detail goes to the
 * operator's log through `onInternalError` and never to the peer.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Implementation,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';

export const INTERNAL_ERROR_MESSAGE = 'Internal error';

/** Receives what an internal error was (for the log only). */
export type InternalErrorSink = (method: string, error: unknown) => void;

export class GuardedServer extends Server {
  readonly #onInternalError: InternalErrorSink | undefined;

  constructor(identity: Implementation, options: ServerOptions, onInternalError?: InternalErrorSink) {
    super(identity, options);
    this.#onInternalError = onInternalError;
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        try {
          this.#onInternalError?.(method, error);
        } catch {
          // A log sink must never change the answer.
        }
        throw new ProtocolError(ProtocolErrorCode.InternalError, INTERNAL_ERROR_MESSAGE);
      }
    };
  }
}

/** A one-line description of an internal error for the log (name and message; the stack stays out). */
export function describeInternalError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : 'a non-Error value was thrown';
}
