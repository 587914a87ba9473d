/** Which failures of a live sampling request mean "the host could not answer" (the plan's next source answers). */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { samplingFailureReason } from '../../src/legacy/samplingFailure.js';

describe('samplingFailureReason', () => {
  it.each([
    [
      new ProtocolError(-1, 'User rejected sampling request'),
      "the client refused the sampling request for 'pick_files' (error -1: User rejected sampling request)",
    ],
    [
      new ProtocolError(0, 'model backend down'),
      "the client's model could not answer the sampling request for 'pick_files' (error 0: model backend down)",
    ],
    [
      new ProtocolError(-32603, 'Internal error'),
      "could not answer the sampling request for 'pick_files' (error -32603: Internal error)",
    ],
    [
      new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'),
      "the client did not answer the sampling request for 'pick_files' in time (Request timed out)",
    ],
    [
      new SdkError(SdkErrorCode.InvalidResult, 'result does not match'),
      'is not a sampling result (result does not match)',
    ],
  ])('%s: the host could not answer', (error, reason) => {
    expect(samplingFailureReason(error, "'pick_files'")).toContain(reason);
  });

  it('a closed connection or a cancelled call is not the host answering: the call fails as before', () => {
    expect(
      samplingFailureReason(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), "'x'"),
    ).toBeUndefined();
    expect(samplingFailureReason(new Error('aborted'), "'x'")).toBeUndefined();
  });

  it('the detail is one printable line of at most 200 characters', () => {
    const reason = samplingFailureReason(
      new ProtocolError(0, `bad\u001b[31m\n${'x'.repeat(500)}`),
      "'summary'",
    ) as string;
    expect([...reason].some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
    expect(reason.length).toBeLessThan(320);
  });
});
