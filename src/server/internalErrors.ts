/**
 * One rule for failures nobody planned: a request handler that throws anything but a `ProtocolError` answers
 * -32603 with the fixed message `Internal error`. The SDK would put the exception's own text on the wire (a host
 * path in an `EACCES`, a library's message, a stack-depth error); here the detail goes to the operator's log and
 * never to the peer.
 */
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';

export const INTERNAL_ERROR_MESSAGE = 'Internal error';

/** Receives what an internal error was (for the log only). */
export type InternalErrorSink = (method: string, error: unknown) => void;

/** A one-line description of an internal error for the log (name and message; the stack stays out). */
export function describeInternalError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : 'a non-Error value was thrown';
}

type AnyHandler = (...args: unknown[]) => unknown;

/** `handler` with every non-protocol failure replaced by -32603 `Internal error` (the detail to `sink`). */
export function guardHandler<H extends AnyHandler>(method: string, handler: H, sink: InternalErrorSink): H {
  const guarded = async (...args: unknown[]): Promise<unknown> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      try {
        // A call aborted by its client (cancelled, disconnected) is no fault to report; nobody reads the answer.
        if (!(error instanceof Error && error.name === 'AbortError')) sink(method, error);
      } catch {
        // A log sink must never change the answer.
      }
      throw new ProtocolError(ProtocolErrorCode.InternalError, INTERNAL_ERROR_MESSAGE);
    }
  };
  return guarded as unknown as H;
}

/**
 * Every request handler registered on `server` from now on (ours, and those an `extend` hook adds) is guarded.
 * The SDK's own handlers (`server/discover`, `initialize`, `ping`) only throw protocol errors.
 */
export function guardRequestHandlers(server: Server, sink: InternalErrorSink): void {
  const register = server.setRequestHandler.bind(server) as (method: string, ...rest: unknown[]) => void;
  // (method, handler) or (method, schemas, handler): the handler is always the last argument.
  const guardedRegister = (method: string, ...rest: unknown[]): void => {
    const last = rest.length - 1;
    const handler = rest[last];
    if (typeof handler === 'function') rest[last] = guardHandler(method, handler as AnyHandler, sink);
    register(method, ...rest);
  };
  (server as unknown as { setRequestHandler: typeof guardedRegister }).setRequestHandler = guardedRegister;
}
