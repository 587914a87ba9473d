/**
 * The per-request `_meta` envelope gate (protocol revision 2026-07-28).
 *
 * Runs in front of the SDK on both fronts. The SDK validates the envelope too, but on stdio
 * it answers an envelope-less opening with -32022 (not the spec's -32602) and stops checking
 * the version once a connection is pinned, and over HTTP a header-less request without
 * `_meta` gets -32022 without `requested`. One pure function keeps both fronts exact.
 */
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

import { isPlainObject } from './json.js';
import { LEGACY_REVISION, MODERN_REVISION, SUPPORTED_VERSIONS } from './revisions.js';

/** A JSON-RPC error the gate answers with, before any server instance sees the request. */
export interface EnvelopeRejection {
  code: -32602 | -32022;
  message: string;
  data?: unknown;
}

/**
 * Whether a message claims the 2026-07-28 era: its `params._meta` names a protocol version. The fronts
 * route a message without the claim (`initialize`, a 2025-11-25 session's traffic) to the legacy adapter.
 */
export function hasEnvelopeClaim(params: unknown): boolean {
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * Checks one request's envelope. Returns `undefined` when the request may be served.
 * Callers apply it to requests only (a message with an `id`); notifications are never answered.
 * `initialize` is passed through: the legacy era is decided by the serving entry.
 */
export function checkRequestEnvelope(
  method: string,
  params: unknown,
  options: EnvelopeOptions = {},
): EnvelopeRejection | undefined {
  if (method === 'initialize') return undefined;
  return (
    checkEnvelopeMeta(params, options.legacy ?? true) ??
    checkInputResponses((params as Record<string, unknown>)['inputResponses'])
  );
}

export interface EnvelopeOptions {
  /** Whether the front serves 2025-11-25 clients through `initialize` (default true): the -32022 message says so. */
  legacy?: boolean;
}

/**
 * Whether `params` carry a valid 2026-07-28 envelope. The SDK's stdio entry takes an `initialize`
 * without one for the 2025-11-25 handshake, whatever else its `_meta` holds.
 */
export function carriesValidEnvelope(params: unknown): boolean {
  return hasEnvelopeClaim(params) && checkEnvelopeMeta(params, true) === undefined;
}

/** Revisions served through `initialize` on the same endpoint (the legacy adapter), when it is on. */
const HANDSHAKE_REVISIONS: readonly string[] = [LEGACY_REVISION];

function unsupportedVersionMessage(version: string, legacy: boolean): string {
  const base = `Unsupported protocol version: ${version} (per-request _meta serves ${SUPPORTED_VERSIONS.join(', ')})`;
  if (!HANDSHAKE_REVISIONS.includes(version)) return base;
  return legacy
    ? `${base}; a ${version} client opens with initialize on the same endpoint instead`
    : `${base}; this server does not serve ${version} clients (legacy serving is off)`;
}

function checkEnvelopeMeta(params: unknown, legacy: boolean): EnvelopeRejection | undefined {
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  if (!isPlainObject(meta)) {
    return {
      code: -32602,
      message:
        `Invalid params: the request has no _meta envelope; revision ${MODERN_REVISION} requires params._meta with ` +
        `${PROTOCOL_VERSION_META_KEY} ("${MODERN_REVISION}") and ${CLIENT_CAPABILITIES_META_KEY} ({} for none)`,
      data: { missing: ['_meta'], required: [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY] },
    };
  }
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (version === undefined) {
    return {
      code: -32602,
      message: `Invalid params: _meta is missing ${PROTOCOL_VERSION_META_KEY}`,
      data: { missing: [PROTOCOL_VERSION_META_KEY] },
    };
  }
  if (typeof version !== 'string') {
    return {
      code: -32602,
      message: `Invalid params: ${PROTOCOL_VERSION_META_KEY} must be a string`,
      data: { invalid: [PROTOCOL_VERSION_META_KEY] },
    };
  }
  if (!SUPPORTED_VERSIONS.includes(version)) {
    return {
      code: -32022,
      message: unsupportedVersionMessage(version, legacy),
      data: { supported: [...SUPPORTED_VERSIONS], requested: version },
    };
  }
  if (!isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])) {
    return {
      code: -32602,
      message: `Invalid params: _meta is missing ${CLIENT_CAPABILITIES_META_KEY} (send {} for none)`,
      data: { missing: [CLIENT_CAPABILITIES_META_KEY] },
    };
  }
  return undefined;
}

/**
 * `inputResponses`, when present, maps keys to BARE results (an elicitation, sampling or roots
 * result). Anything else is malformed input and an error — the SDK would silently drop it, and a
 * dropped answer would read as "missing" and be asked for again.
 */
function checkInputResponses(responses: unknown): EnvelopeRejection | undefined {
  if (responses === undefined) return undefined;
  if (!isPlainObject(responses)) {
    return { code: -32602, message: 'Invalid params: inputResponses must be an object keyed by input request' };
  }
  for (const [key, entry] of Object.entries(responses)) {
    if (!isPlainObject(entry) || 'method' in entry || 'result' in entry) {
      return {
        code: -32602,
        message: `Invalid params: inputResponses.${key} must be the bare result object of its input request`,
      };
    }
  }
  return undefined;
}
