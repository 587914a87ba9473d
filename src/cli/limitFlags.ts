/** `serve`'s load limits as flags: what one request, one principal and all requests together may take. */
import type { AdmissionOptions } from '../server/admission.js';
import { parseInteger } from './args.js';

export const ADMISSION_FLAG_OPTIONS = {
  'max-calls': { type: 'string' },
  'max-calls-per-principal': { type: 'string' },
  'max-queued-calls': { type: 'string' },
} as const;

export interface AdmissionFlagValues {
  'max-calls'?: string | undefined;
  'max-calls-per-principal'?: string | undefined;
  'max-queued-calls'?: string | undefined;
}

/** Tool-call admission limits (both fronts); only the flags given are set. */
export function admissionFromFlags(values: AdmissionFlagValues): AdmissionOptions {
  const maxConcurrent = parseInteger('--max-calls', values['max-calls'], 1, 10_000);
  const maxPerPrincipal = parseInteger('--max-calls-per-principal', values['max-calls-per-principal'], 1, 100_000);
  const maxQueued = parseInteger('--max-queued-calls', values['max-queued-calls'], 0, 100_000);
  return {
    ...(maxConcurrent !== undefined && { maxConcurrent }),
    ...(maxPerPrincipal !== undefined && { maxPerPrincipal }),
    ...(maxQueued !== undefined && { maxQueued }),
  };
}

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
