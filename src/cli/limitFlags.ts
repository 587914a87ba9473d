/** `serve`'s load limits as flags: what one request, one principal and all requests together may take. */
import { parseInteger } from './args.js';

export const HTTP_LIMIT_FLAG_OPTIONS = {
  'max-body-in-flight': { type: 'string' },
  'body-timeout': { type: 'string' },
} as const;

export interface HttpLimitFlagValues {
  'max-body-in-flight'?: string | undefined;
  'body-timeout'?: string | undefined;
}

export interface HttpLimits {
  maxBodyBytesInFlight?: number;
  bodyTimeoutMs?: number;
}

/** The HTTP front's limits; only the flags given are set (the rest keep the defaults). */
export function httpLimitsFromFlags(values: HttpLimitFlagValues): HttpLimits {
  const inFlight = parseInteger('--max-body-in-flight', values['max-body-in-flight'], 64 * 1024, 16 * 1024 ** 3);
  const timeout = parseInteger('--body-timeout', values['body-timeout'], 1, 3_600);
  return {
    ...(inFlight !== undefined && { maxBodyBytesInFlight: inFlight }),
    ...(timeout !== undefined && { bodyTimeoutMs: timeout * 1000 }),
  };
}

/** The names of the HTTP-only limit flags (refused with --stdio). */
export const HTTP_LIMIT_FLAGS = Object.keys(HTTP_LIMIT_FLAG_OPTIONS) as (keyof typeof HTTP_LIMIT_FLAG_OPTIONS)[];
