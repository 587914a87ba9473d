/**
 * The client's model answered an input request unusably and no server-owned model is configured to
 * answer that step instead: invalid params (-32602) on both revisions, with the input key and the
 * reason in `data` (`{key, reason}`, as every `InputResponseError`). On 2026-07-28 the answer arrived
 * in `inputResponses`; on 2025-11-25 as the result of a live sampling request — so the message names
 * neither, only the input and what was wrong.
 */
import { InputResponseError } from './roundErrors.js';

export class UnusableAnswerError extends InputResponseError {
  override name = 'UnusableAnswerError';

  constructor(key: string, reason: string) {
    super(
      key,
      reason,
      `The client's model gave an unusable answer for input '${key}': ${reason}. ` +
        'This server has no model of its own to answer instead; call the tool again.',
    );
  }
}
