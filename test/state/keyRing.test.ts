import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ModelInputError } from '../../src/errors.js';
import {
  createEphemeralKeyRing,
  createKeyRing,
  EPHEMERAL_KEY_WARNING,
  generateStateKey,
  loadKeyRing,
  parseStateKeys,
} from '../../src/state/keyRing.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);

function captureError(fn: () => unknown): ModelInputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelInputError);
    return error as ModelInputError;
  }
  throw new Error('expected an error');
}

describe('createKeyRing', () => {
  it('mints with the first key and verifies with every key', () => {
    const ring = createKeyRing([
      { kid: 'new', key: keyA },
      { kid: 'old', key: keyB },
    ]);
    expect(ring.mintKey.kid).toBe('new');
    expect(ring.kids).toEqual(['new', 'old']);
    expect(Buffer.from(ring.get('old')?.key ?? []).equals(keyB)).toBe(true);
    expect(ring.get('missing')).toBeUndefined();
    expect(ring.ephemeral).toBe(false);
  });

  it('rejects empty rings, duplicate kids, bad kids and bad key lengths without leaking keys', () => {
    expect(captureError(() => createKeyRing([])).code).toBe('state_keys_invalid');
    const dup = captureError(() =>
      createKeyRing([
        { kid: 'k', key: keyA },
        { kid: 'k', key: keyB },
      ]),
    );
    expect(dup.message).toMatch(/duplicate kid "k"/);
    const short = captureError(() => createKeyRing([{ kid: 'short', key: keyA.subarray(0, 16) }]));
    expect(short.code).toBe('state_keys_invalid');
    expect(short.message).toMatch(/state key 1 \(kid "short"\).*got 16/);
    expect(short.message).not.toContain(keyA.subarray(0, 16).toString('base64'));
    expect(captureError(() => createKeyRing([{ kid: 'bad kid', key: keyA }])).message).toMatch(/state key 1/);
  });

  it('copies key material so later mutation of the input does not change the ring', () => {
    const key = Buffer.from(keyA);
    const ring = createKeyRing([{ kid: 'k', key }]);
    key.fill(0);
    expect(Buffer.from(ring.mintKey.key).equals(keyA)).toBe(true);
  });
});

describe('parseStateKeys', () => {
  it('accepts standard and url-safe base64 separated by commas and newlines, skipping comments', () => {
    const text = [
      '# production keys, newest first',
      `new:${keyA.toString('base64')}, old:${keyB.toString('base64url')}`,
      '',
      `  third:${keyB.toString('base64url')}=  ,`,
    ].join('\n');
    const keys = parseStateKeys(text);
    expect(keys.map((k) => k.kid)).toEqual(['new', 'old', 'third']);
    expect(Buffer.from(keys[0]?.key ?? []).equals(keyA)).toBe(true);
    expect(Buffer.from(keys[1]?.key ?? []).equals(keyB)).toBe(true);
  });

  it('names the entry and kid but never the secret', () => {
    const secret = randomBytes(16).toString('base64');
    const error = captureError(() => parseStateKeys(`good:${keyA.toString('base64')}\nshort:${secret}`));
    expect(error.code).toBe('state_keys_invalid');
    expect(error.message).toMatch(/entry 2 \(kid "short"\)/);
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain(keyA.toString('base64'));
  });

  it('rejects entries without a kid, bad kids, bad base64 and empty input', () => {
    const noKid = keyA.toString('base64');
    const missing = captureError(() => parseStateKeys(noKid));
    expect(missing.message).toMatch(/entry 1: expected kid:base64/);
    expect(missing.message).not.toContain(noKid);
    expect(captureError(() => parseStateKeys(`bad kid:${noKid}`)).message).toMatch(/entry 1: kid must match/);
    expect(captureError(() => parseStateKeys('k:not*base64!')).message).toMatch(/kid "k".*not valid base64/);
    expect(captureError(() => parseStateKeys('# only a comment\n , \n')).message).toMatch(/no state keys/);
  });
});

describe('ephemeral keys and generation', () => {
  it('creates a random per-process ring', () => {
    const a = createEphemeralKeyRing();
    const b = createEphemeralKeyRing();
    expect(a.ephemeral).toBe(true);
    expect(a.kids).toEqual(['ephemeral']);
    expect(a.mintKey.key).toHaveLength(32);
    expect(Buffer.from(a.mintKey.key).equals(Buffer.from(b.mintKey.key))).toBe(false);
  });

  it('generates lines that parse back', () => {
    const line = generateStateKey('k2026');
    const [parsed] = parseStateKeys(line);
    expect(parsed?.kid).toBe('k2026');
    expect(parsed?.key).toHaveLength(32);
    expect(generateStateKey('k2026')).not.toBe(line);
    expect(captureError(() => generateStateKey('no spaces')).code).toBe('state_keys_invalid');
  });
});

describe('loadKeyRing', () => {
  let dir: string;
  const fileLine = `file-key:${keyA.toString('base64')}`;
  const envLine = `env-key:${keyB.toString('base64url')}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mmi-keys-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads from a file', async () => {
    const filePath = join(dir, 'keys.txt');
    await writeFile(filePath, `# keys\n${fileLine}\n`);
    const { ring, warning } = await loadKeyRing({ filePath });
    expect(ring.kids).toEqual(['file-key']);
    expect(ring.ephemeral).toBe(false);
    expect(warning).toBeUndefined();
  });

  it('loads from the environment value', async () => {
    const { ring, warning } = await loadKeyRing({ envValue: envLine });
    expect(ring.kids).toEqual(['env-key']);
    expect(warning).toBeUndefined();
  });

  it('prefers the file over the environment value', async () => {
    const filePath = join(dir, 'both.txt');
    await writeFile(filePath, fileLine);
    const { ring } = await loadKeyRing({ filePath, envValue: envLine });
    expect(ring.kids).toEqual(['file-key']);
  });

  it('fails on a missing file, naming the path', async () => {
    const filePath = join(dir, 'nope.txt');
    await expect(loadKeyRing({ filePath, envValue: envLine })).rejects.toMatchObject({
      code: 'state_keys_invalid',
      message: expect.stringContaining(filePath),
    });
  });

  it('names the source when file content is invalid', async () => {
    const filePath = join(dir, 'bad.txt');
    await writeFile(filePath, 'k:AAAA');
    await expect(loadKeyRing({ filePath })).rejects.toThrow(
      /state keys file .*bad\.txt: state key entry 1 \(kid "k"\)/,
    );
    await expect(loadKeyRing({ envValue: 'k:AAAA' })).rejects.toThrow(/^MCP_MODEL_INPUT_STATE_KEYS: /);
  });

  it('falls back to an ephemeral ring with a warning when nothing is configured', async () => {
    for (const options of [{}, { envValue: '  ' }, { envValue: undefined, filePath: undefined }]) {
      const { ring, warning } = await loadKeyRing(options);
      expect(ring.ephemeral).toBe(true);
      expect(warning).toBe(EPHEMERAL_KEY_WARNING);
    }
    expect(EPHEMERAL_KEY_WARNING).toBe(
      'no state keys configured (MCP_MODEL_INPUT_STATE_KEYS or --state-keys-file): using a random per-process key; MRTR retries must come back to this process',
    );
  });
});
