/**
 * The client's model answered an input request unusably and no server-owned model is configured to
 * answer that step instead: invalid params (-32602) on both revisions, with the input key and the
 * reason in `data`. On 2026-07-28 the answer arrived in `inputResponses`; on 2025-11-25 as the result
 * of a live sampling request — the message names neither, only the input and what was wrong.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

export interface UnusableAnswerData {
  inputKey: string;
  reason: string;
}

export class UnusableAnswerError extends ProtocolError {
  override name = 'UnusableAnswerError';
  readonly inputKey: string;
  readonly reason: string;

  constructor(inputKey: string, reason: string) {
    const data: UnusableAnswerData = { inputKey, reason };
    super(
      ProtocolErrorCode.InvalidParams,
      `The client's model gave an unusable answer for input '${inputKey}': ${reason}. ` +
        'This server has no model of its own to answer instead; call the tool again.',
      data,
    );
    this.inputKey = inputKey;
    this.reason = reason;
  }
}
