import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { canonicalJson, digestArguments } from '../../src/state/canonicalJson.js';

describe('canonicalJson', () => {
  it('sorts keys recursively and is independent of insertion order', () => {
    const a = { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } };
    const b = { a: { c: 'x', d: [3, { y: null, z: true }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
  });

  it('sorts by UTF-16 code units, not locale', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, '\u00e9': 4, '\ud83d\ude00': 5, '\uffff': 6 })).toBe(
      '{"B":2,"a":3,"b":1,"\u00e9":4,"\ud83d\ude00":5,"\uffff":6}',
    );
  });

  it('keeps array order, drops undefined members and escapes strings', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ keep: 1, drop: undefined })).toBe('{"keep":1}');
    expect(canonicalJson([undefined])).toBe('[null]');
    expect(canonicalJson({ s: 'a"b\n' })).toBe('{"s":"a\\"b\\n"}');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('throws TypeError on values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('allows shared (non-cyclic) references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });
});

describe('digestArguments', () => {
  it('is the hex SHA-256 of the canonical JSON, order-independent', () => {
    const expected = createHash('sha256').update('{"audience":"developer","depth":2}').digest('hex');
    expect(digestArguments({ depth: 2, audience: 'developer' })).toBe(expected);
    expect(digestArguments({ audience: 'developer', depth: 2 })).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('treats missing arguments as an empty object and detects changes', () => {
    expect(digestArguments(undefined)).toBe(digestArguments({}));
    expect(digestArguments(null)).toBe(digestArguments({}));
    expect(digestArguments({ audience: 'developer' })).not.toBe(digestArguments({ audience: 'executive' }));
  });
});
