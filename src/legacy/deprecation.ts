/**
 * The one deprecation warning of the legacy adapter: sampling is deprecated (SEP-2577) and may be
 * removed from the specification on or after 2027-07-28. Logged once per notice — the server factory
 * holds one, so once per `serve` process — the first time a 2025-11-25 client declares sampling.
 */
import type { Logger } from '../logger.js';

export const SAMPLING_DEPRECATION_WARNING =
  'a 2025-11-25 client negotiated sampling: it gets live sampling/createMessage requests from the legacy ' +
  'adapter. Sampling is deprecated (SEP-2577) and may be removed on or after 2027-07-28; move the client to ' +
  '2026-07-28, or serve a server-owned model (--model host,PROVIDER:MODEL). See docs/deployment.md.';

/** Returns a callback that logs the warning on its first call only. */
export function createDeprecationNotice(logger: Logger): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    logger.warn(SAMPLING_DEPRECATION_WARNING);
  };
}
