/**
 * Issue 26: the false-positive corpus — random-looking content that holds no secret (UUIDs, git SHAs, lock-file
 * integrity hashes, base64 images, minified code), generated at run time. Redaction must leave at most
 * {@link MAX_RATE} of its items changed (the rate docs/security.md states); today none is.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { redactTexts } from '../../../src/repo/secrets/index.js';

/** The largest share of false-positive items redaction may change (docs/security.md). */
export const MAX_RATE = 0.01;
const PER_KIND = 200;

const digest = (seed: string, algorithm = 'sha256'): Buffer => createHash(algorithm).update(seed).digest();
const hex = (seed: string, length: number): string => digest(seed, 'sha512').toString('hex').slice(0, length);
const bytes = (seed: string, length: number): Buffer => {
  const out: Buffer[] = [];
  for (let block = 0; out.length * 64 < length; block++) out.push(digest(`${seed}:${block}`, 'sha512'));
  return Buffer.concat(out).subarray(0, length);
};

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const WORDS = 'value item list node data user name page size index count event state props render update'.split(' ');
function minified(seed: string): string {
  const id = (n: number): string => String.fromCharCode(97 + (digest(`${seed}${n}`)[0]! % 26));
  const word = (n: number): string => WORDS[digest(`${seed}w${n}`)[0]! % WORDS.length]!;
  return (
    `!function(${id(1)},${id(2)}){"use strict";var ${id(3)}=${id(1)}.${word(1)},${id(4)}={key:"${word(2)}",` +
    `auth:${id(2)}.${word(3)},token:${id(3)}.${word(4)},secret:!0,password:""};` +
    `function ${id(5)}(${id(6)}){return ${id(6)}.${word(5)}+${hex(`${seed}n`, 6).length}}` +
    `${id(4)}.h="${hex(`${seed}h`, 8)}";${id(1)}.exports=${id(5)}}(this,module);`
  );
}

/** The items of each kind, each in the line a repository would hold it in. */
export function falsePositiveItems(): Record<string, string[]> {
  const range = Array.from({ length: PER_KIND }, (_, index) => index);
  return {
    uuid: range.map((i) => (i % 2 === 0 ? `"id": "${uuid(`u${i}`)}",` : `request_id=${uuid(`u${i}`)} status=200`)),
    git_sha: range.map((i) =>
      i % 2 === 0
        ? `commit ${hex(`s${i}`, 40)}`
        : `"resolved": "git+ssh://git@github.com/acme/lib.git#${hex(`s${i}`, 40)}",`,
    ),
    lock_integrity: range.map((i) =>
      i % 2 === 0
        ? `"integrity": "sha512-${digest(`i${i}`, 'sha512').toString('base64')}",`
        : `checksum = "${hex(`c${i}`, 64)}"`,
    ),
    base64_image: range.map((i) =>
      i % 2 === 0
        ? `background: url(data:image/png;base64,${bytes(`p${i}`, 600 + i).toString('base64')});`
        : `<img src="data:image/jpeg;base64,${bytes(`j${i}`, 900 + i).toString('base64')}" alt="">`,
    ),
    minified_code: range.map((i) => minified(`m${i}`)),
  };
}

describe('the false-positive corpus', () => {
  it(`redaction changes at most ${MAX_RATE * 100}% of the items of each kind`, async () => {
    const rates: Record<string, number> = {};
    for (const [kind, items] of Object.entries(falsePositiveItems())) {
      const results = await redactTexts(items);
      rates[kind] = results.filter((result) => result.count > 0).length / items.length;
    }
    for (const rate of Object.values(rates)) expect(rate).toBeLessThanOrEqual(MAX_RATE);
    // Measured today: none.
    expect(rates).toEqual({ uuid: 0, git_sha: 0, lock_integrity: 0, base64_image: 0, minified_code: 0 });
  });
});
