import type { ReadFileResult } from './types.js';

export type TextEncoding = ReadFileResult['encoding'];

export interface DecodedPrefix {
  text: string;
  /** Bytes of the file the text stands for, byte-order mark included. */
  bytesUsed: number;
  encoding: TextEncoding;
}

/** The bytes needed to recognise a byte-order mark, read even when the budget is smaller. */
export const BOM_PROBE_BYTES = 3;

function detectBom(head: Uint8Array): { encoding: 'utf8' | 'utf16le' | 'utf16be'; length: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', length: 2 };
  return { encoding: 'utf8', length: 0 };
}

/** Drops a UTF-8 sequence left incomplete at the end of a cut. */
function utf8Boundary(body: Uint8Array): number {
  let lead = body.length - 1;
  while (lead >= 0 && lead > body.length - 4 && ((body[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return body.length;
  const byte = body[lead] ?? 0;
  const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead + needed > body.length ? lead : body.length;
}

/** Keeps whole UTF-16 code units and does not split a surrogate pair. */
function utf16Boundary(body: Uint8Array, bigEndian: boolean): number {
  let end = body.length - (body.length % 2);
  if (end >= 2) {
    const unit = bigEndian
      ? ((body[end - 2] ?? 0) << 8) | (body[end - 1] ?? 0)
      : ((body[end - 1] ?? 0) << 8) | (body[end - 2] ?? 0);
    if (unit >= 0xd800 && unit <= 0xdbff) end -= 2;
  }
  return end;
}

function decodeStrict(label: 'utf-8' | 'utf-16le', bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes the first `limit` bytes of a file of `size` bytes. `head` holds at least those bytes (and at least
 * {@link BOM_PROBE_BYTES} when the file has them). A cut falls on a character boundary; invalid sequences become
 * U+FFFD and the encoding is reported as `'replaced'`.
 */
export function decodePrefix(head: Uint8Array, limit: number, size: number): DecodedPrefix {
  const bom = detectBom(head);
  const available = Math.min(head.length, limit);
  if (available < bom.length) return { text: '', bytesUsed: 0, encoding: bom.encoding };
  let body = head.subarray(bom.length, available);
  const complete = available >= size;

  if (bom.encoding === 'utf8') {
    if (!complete) body = body.subarray(0, utf8Boundary(body));
    const strict = decodeStrict('utf-8', body);
    const text = strict ?? new TextDecoder('utf-8', { ignoreBOM: true }).decode(body);
    return { text, bytesUsed: bom.length + body.length, encoding: strict === undefined ? 'replaced' : 'utf8' };
  }

  const bigEndian = bom.encoding === 'utf16be';
  // A complete file with an odd byte count ends in half a code unit: shown as U+FFFD, never dropped silently.
  const dangling = complete && body.length % 2 === 1;
  const end = complete ? body.length - (body.length % 2) : utf16Boundary(body, bigEndian);
  const even = body.subarray(0, end);
  const units = bigEndian ? Buffer.from(even).swap16() : even;
  const strict = decodeStrict('utf-16le', units);
  const decoded = strict ?? new TextDecoder('utf-16le', { ignoreBOM: true }).decode(units);
  return {
    text: dangling ? `${decoded}\uFFFD` : decoded,
    bytesUsed: bom.length + (dangling ? body.length : end),
    encoding: strict === undefined || dangling ? 'replaced' : bom.encoding,
  };
}
