import { createCipheriv, randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createKeyRing } from '../../src/state/keyRing.js';
import type { StateRejectReason } from '../../src/state/stateRejectedError.js';
import { binding, codec, flipByte, keyA, keyB, payload, rejection, swapChar, T0 } from './stateFixtures.js';

describe('opening tampered or malformed state', () => {
  it('rejects tampering with each part of the token', () => {
    const c = codec();
    const token = c.seal(binding, payload);
    const cases: [string, string, StateRejectReason][] = [
      ['prefix', `mmi2${token.slice(4)}`, 'malformed'],
      ['prefix case', `Mmi1${token.slice(4)}`, 'malformed'],
      ['kid', token.replace(/^mmi1\.a\./, 'mmi1.b.'), 'unknown_key'],
      ['iv first byte', flipByte(token, 2, () => 0), 'bad_tag'],
      ['iv last byte', flipByte(token, 2, (n) => n - 1), 'bad_tag'],
      ['ciphertext first byte', flipByte(token, 3, () => 0), 'bad_tag'],
      ['ciphertext last byte', flipByte(token, 3, (n) => n - 17), 'bad_tag'],
      ['tag first byte', flipByte(token, 3, (n) => n - 16), 'bad_tag'],
      ['tag last byte', flipByte(token, 3, (n) => n - 1), 'bad_tag'],
    ];
    for (const [part, tampered, reason] of cases) {
      expect(tampered, part).not.toBe(token);
      expect(
        rejection(() => c.open(tampered, binding)),
        part,
      ).toBe(reason);
    }
  });

  it('rejects a changed character anywhere in the iv or sealed part', () => {
    const c = codec();
    const [, , iv = '', sealed = ''] = c.seal(binding, payload).split('.');
    // 12 IV bytes use every bit of 16 characters, so any change fails the tag.
    for (let i = 0; i < iv.length; i += 1) {
      expect(rejection(() => c.open(`mmi1.a.${swapChar(iv, i)}.${sealed}`, binding))).toBe('bad_tag');
    }
    // Only the final sealed character can carry unused bits (then: malformed, one spelling per token).
    for (let i = 0; i < sealed.length; i += 1) {
      const reason = rejection(() => c.open(`mmi1.a.${iv}.${swapChar(sealed, i)}`, binding));
      expect(i === sealed.length - 1 ? ['bad_tag', 'malformed'] : ['bad_tag']).toContain(reason);
    }
  });

  it('accepts exactly one spelling: unused trailing base64url bits are malformed', () => {
    const c = codec();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = [0, 1, 2]
      .map((extra) => c.seal(binding, { ...payload, secret: 'x'.repeat(extra) }))
      .find((t) => (t.split('.')[3] ?? '').length % 4 !== 0);
    const sealed = token?.split('.')[3] ?? '';
    const last = alphabet.indexOf(sealed.slice(-1));
    const variant = `${sealed.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(variant, 'base64url').equals(Buffer.from(sealed, 'base64url'))).toBe(true);
    const [prefix = '', kid = '', iv = ''] = token?.split('.') ?? [];
    expect(rejection(() => c.open([prefix, kid, iv, variant].join('.'), binding))).toBe('malformed');
  });

  it('authenticates the kid: the same key under another kid fails the tag', () => {
    const twin = createKeyRing([
      { kid: 'a', key: keyA },
      { kid: 'b', key: keyA },
    ]);
    const token = codec(twin).seal(binding, payload);
    const relabelled = token.replace(/^mmi1\.a\./, 'mmi1.b.');
    expect(rejection(() => codec(twin).open(relabelled, binding))).toBe('bad_tag');
  });

  it('rejects a wrong key with the same kid and an unknown kid', () => {
    const token = codec().seal(binding, payload);
    const impostor = createKeyRing([{ kid: 'a', key: keyB }]);
    expect(rejection(() => codec(impostor).open(token, binding))).toBe('bad_tag');
    const other = createKeyRing([{ kid: 'z', key: keyA }]);
    expect(rejection(() => codec(other).open(token, binding))).toBe('unknown_key');
  });

  it('rejects malformed input', () => {
    const c = codec();
    const token = c.seal(binding, payload);
    const [, , iv = '', sealed = ''] = token.split('.');
    for (const bad of [
      42,
      null,
      { token },
      '',
      'mmi1',
      `${token}.extra`,
      `mmi1.a.${iv}`,
      `mmi1.bad kid.${iv}.${sealed}`,
      `mmi1.a.${iv}=.${sealed}`,
      `mmi1.a.${iv.slice(0, 12)}.${sealed}`,
      `mmi1.a.${iv}.${sealed.slice(0, 20)}`,
      `mmi1.a.${iv}.${sealed}+`,
    ]) {
      expect(rejection(() => c.open(bad, binding))).toBe('malformed');
    }
  });

  it('rejects authentic tokens whose plaintext has the wrong shape', () => {
    const forge = (plaintext: string): string => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyA, iv);
      cipher.setAAD(Buffer.from('mmi1.a'));
      const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `mmi1.a.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    };
    const c = codec();
    const exp = Math.floor(T0 / 1000) + 60;
    const good = {
      v: 1,
      jti: 'AAAAAAAAAAAAAAAAAAAAAA',
      prn: binding.principal,
      mth: binding.method,
      tool: binding.tool,
      arg: binding.argumentsDigest,
    };
    expect(c.open(forge(JSON.stringify({ ...good, iat: exp - 60, exp, p: 7 })), binding)).toBe(7);
    expect(rejection(() => c.open(forge('not json'), binding))).toBe('malformed');
    expect(rejection(() => c.open(forge('[1]'), binding))).toBe('malformed');
    expect(rejection(() => c.open(forge(JSON.stringify({ ...good, v: 2, iat: 0, exp })), binding))).toBe('malformed');
    expect(rejection(() => c.open(forge(JSON.stringify({ ...good, iat: 0, exp: '9' })), binding))).toBe('malformed');
    // Single use needs the id: a token without one (or with a wrong-shaped one) is not accepted.
    const { jti: _omitted, ...withoutId } = good;
    expect(rejection(() => c.open(forge(JSON.stringify({ ...withoutId, iat: exp - 60, exp })), binding))).toBe(
      'malformed',
    );
    expect(rejection(() => c.open(forge(JSON.stringify({ ...good, jti: 'x', iat: exp - 60, exp })), binding))).toBe(
      'malformed',
    );
  });
});
