/**
 * What a failed live `sampling/createMessage` request of a 2025-11-25 call means for the flow. The client's host
 * could not answer — whatever it said: the user declined (-1, as the TypeScript SDK sends it), its model or its
 * callback failed (the Python SDK answers code 0, fastmcp -32603, others other codes), no answer came in time, or
 * the answer was not a sampling result — so the call goes on as if the host had no model (the plan's next source
 * answers, or the call ends with an `isError` result naming why). Only a connection that is gone, or a call that
 * was cancelled, ends the call as the SDK's shim ends it: there is nobody left to answer.
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';

import { printable } from '../protocol/sanitize.js';

/** JSON-RPC error code of a sampling request the user rejected (revision 2025-11-25, the TypeScript SDK). */
export const SAMPLING_REJECTED_CODE = -1;
const DETAIL_CHARS = 200;

function detailOf(error: Error): string {
  return printable(error.message.replace(/^MCP error -?\d+:\s*/, '')).slice(0, DETAIL_CHARS);
}

/**
 * Why the host could not answer the sampling request for `keys` (quoted input keys, e.g. `'pick_files'`), for the
 * tool's result and notes; undefined when the error is not the host's answer (the call then fails as before).
 */
export function samplingFailureReason(error: unknown, keys: string): string | undefined {
  if (error instanceof ProtocolError) {
    const detail = detailOf(error);
    if (error.code === SAMPLING_REJECTED_CODE) {
      return `the client refused the sampling request for ${keys} (error -1: ${detail})`;
    }
    return `the client's model could not answer the sampling request for ${keys} (error ${error.code}: ${detail})`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return `the client did not answer the sampling request for ${keys} in time (${detailOf(error)})`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
    return `the client's answer to the sampling request for ${keys} is not a sampling result (${detailOf(error)})`;
  }
  return undefined;
}
