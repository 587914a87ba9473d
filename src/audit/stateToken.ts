/**
 * Looking at a requestState the way an attacker would: is it readable JSON (plain, base64 or
 * base64url, or one dot-separated segment of it)? And a tampered copy that stays well formed, so a
 * server that parses without verifying accepts it instead of failing to parse.
 */

type Encoding = 'plain' | 'base64' | 'base64url';

interface Decoded {
  encoding: Encoding;
  value: Record<string, unknown>;
  padded: boolean;
}

function asObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function decode(segment: string): Decoded | undefined {
  const plain = asObject(segment);
  if (plain !== undefined) return { encoding: 'plain', value: plain, padded: false };
  if (segment.length < 4) return undefined;
  const encoding: Encoding | undefined = /^[A-Za-z0-9+/]+=*$/.test(segment)
    ? 'base64'
    : /^[A-Za-z0-9_-]+=*$/.test(segment)
      ? 'base64url'
      : undefined;
  if (encoding === undefined) return undefined;
  const value = asObject(Buffer.from(segment, encoding).toString('utf8'));
  return value === undefined ? undefined : { encoding, value, padded: segment.endsWith('=') };
}

function encode(decoded: Decoded): string {
  const text = JSON.stringify(decoded.value);
  if (decoded.encoding === 'plain') return text;
  const encoded = Buffer.from(text, 'utf8').toString(decoded.encoding);
  return decoded.padded || decoded.encoding === 'base64' ? encoded : encoded.replace(/=+$/, '');
}

/** True when the client could read the state: it decodes to a JSON object. */
export function isReadableState(token: string): boolean {
  return token.split('.').some((segment) => decode(segment) !== undefined);
}

/** A copy that differs from `token`: a readable payload gets an extra member, anything else one flipped character. */
export function tamperState(token: string): string {
  const segments = token.split('.');
  for (const [index, segment] of segments.entries()) {
    const decoded = decode(segment);
    if (decoded === undefined) continue;
    decoded.value = { ...decoded.value, audit_tampered: true };
    segments[index] = encode(decoded);
    return segments.join('.');
  }
  const middle = Math.floor(token.length / 2);
  const flipped = token[middle] === 'A' ? 'B' : 'A';
  return `${token.slice(0, middle)}${flipped}${token.slice(middle + 1)}`;
}
