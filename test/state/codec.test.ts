import { describe, expect, it } from 'vitest';

import { digestArguments } from '../../src/state/canonicalJson.js';
import type { StateBinding } from '../../src/state/codec.js';
import { createStateCodec, DEFAULT_MAX_STATE_TOKEN_BYTES, DEFAULT_STATE_TTL_SECONDS } from '../../src/state/codec.js';
import { createKeyRing } from '../../src/state/keyRing.js';
import type { Payload } from './stateFixtures.js';
import { binding, codec, keyA, keyB, payload, rejection, ringA, T0 } from './stateFixtures.js';

describe('createStateCodec', () => {
  it('exposes defaults and round-trips a payload', () => {
    expect(DEFAULT_STATE_TTL_SECONDS).toBe(300);
    expect(DEFAULT_MAX_STATE_TOKEN_BYTES).toBe(8192);
    const c = codec();
    expect(c.ttlSeconds).toBe(300);
    const token = c.seal(binding, payload);
    expect(token).toMatch(/^mmi1\.a\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(c.open(token, binding)).toEqual(payload);
    expect(c.seal(binding, payload)).not.toBe(token);
  });

  it('does not reveal the principal or payload to the client', () => {
    const token = codec().seal(binding, payload);
    const decoded = token
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('\n');
    for (const needle of ['alice', 'prompt-content', 'src/index.ts', 'summarize_repo', 'tools/call']) {
      expect(token).not.toContain(needle);
      expect(decoded).not.toContain(needle);
    }
  });

  it('supports rotation: the new key mints, the old key still opens', () => {
    const oldToken = codec().seal(binding, payload);
    const rotated = codec(
      createKeyRing([
        { kid: 'b', key: keyB },
        { kid: 'a', key: keyA },
      ]),
    );
    expect(rotated.open(oldToken, binding)).toEqual(payload);
    const newToken = rotated.seal(binding, payload);
    expect(newToken.startsWith('mmi1.b.')).toBe(true);
    expect(rotated.open(newToken, binding)).toEqual(payload);
    expect(rejection(() => codec().open(newToken, binding))).toBe('unknown_key');
  });

  it('is valid through its expiry second and expired one second later', () => {
    let now = T0;
    const c = codec(ringA, () => now);
    const token = c.seal(binding, payload);
    const exp = Math.floor(T0 / 1000) + 300;
    now = exp * 1000;
    expect(c.open(token, binding)).toEqual(payload);
    now = exp * 1000 + 999;
    expect(c.open(token, binding)).toEqual(payload);
    now = (exp + 1) * 1000;
    expect(rejection(() => c.open(token, binding))).toBe('expired');
  });

  it('honours a custom ttl and rejects invalid options', () => {
    let now = T0;
    const c = createStateCodec<Payload>({ keyRing: ringA, ttlSeconds: 5, now: () => now });
    const token = c.seal(binding, payload);
    now = T0 + 6000;
    expect(rejection(() => c.open(token, binding))).toBe('expired');
    expect(() => createStateCodec({ keyRing: ringA, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
    expect(() => createStateCodec({ keyRing: ringA, maxTokenBytes: 1.5 })).toThrow(/maxTokenBytes/);
  });

  it('rejects each binding change with its own reason', () => {
    const c = codec();
    const token = c.seal(binding, payload);
    const open = (change: Partial<StateBinding>) => rejection(() => c.open(token, { ...binding, ...change }));
    expect(open({ principal: 'user:mallory@example.com' })).toBe('principal');
    expect(open({ method: 'prompts/get' })).toBe('method');
    expect(open({ tool: 'pick_files' })).toBe('tool');
    expect(open({ argumentsDigest: digestArguments({ audience: 'executive', root: '.' }) })).toBe('arguments');
    // Key order of the arguments does not matter.
    expect(
      c.open(token, { ...binding, argumentsDigest: digestArguments({ audience: 'developer', root: '.' }) }),
    ).toEqual(payload);
  });

  it('checks binding fields in order: principal, method, tool, arguments', () => {
    const c = codec();
    const token = c.seal(binding, payload);
    const all = { principal: 'x', method: 'x', tool: 'x', argumentsDigest: 'x' };
    expect(rejection(() => c.open(token, all))).toBe('principal');
    expect(rejection(() => c.open(token, { ...all, principal: binding.principal }))).toBe('method');
    expect(rejection(() => c.open(token, { ...binding, tool: 'x', argumentsDigest: 'x' }))).toBe('tool');
  });

  it('checks expiry before the binding', () => {
    let now = T0;
    const c = codec(ringA, () => now);
    const token = c.seal(binding, payload);
    now = T0 + 3_600_000;
    expect(rejection(() => c.open(token, { ...binding, principal: 'someone-else' }))).toBe('expired');
  });

  it('never seals an oversized token and refuses oversized input before decoding', () => {
    const c = codec();
    const huge = { ...payload, secret: 'x'.repeat(DEFAULT_MAX_STATE_TOKEN_BYTES) };
    expect(rejection(() => c.seal(binding, huge))).toBe('oversize');
    // Base64 growth pushes a ~6.5 KB plaintext over 8 KB: caught after encryption.
    const nearLimit = { ...payload, secret: 'x'.repeat(6500) };
    expect(rejection(() => c.seal(binding, nearLimit))).toBe('oversize');
    expect(rejection(() => c.open('x'.repeat(DEFAULT_MAX_STATE_TOKEN_BYTES + 1), binding))).toBe('oversize');
    // An oversized but otherwise valid token is refused too.
    const small = codec(ringA, () => T0, { maxTokenBytes: 200 });
    const token = c.seal(binding, payload);
    expect(token.length).toBeGreaterThan(200);
    expect(rejection(() => small.open(token, binding))).toBe('oversize');
  });
});
