import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as inThread from '../../src/repo/tokens.js';
import { countTokens, cutToTokens } from '../../src/repo/tokens.js';

/** The built module (test/helpers/globalSetup.ts builds dist/): it counts on its worker thread. */
const BUILT = fileURLToPath(new URL('../../dist/repo/tokens.js', import.meta.url));

const texts = [
  'hello world',
  'export function chart(csv: string): string {\n  return csv;\n}\n'.repeat(40),
  '日本語のテキストとコード混在 const x = 1; // コメント\n'.repeat(30),
  'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo='.repeat(50),
  '🙂'.repeat(300),
];

describe('the tokenizer on its worker thread', () => {
  it('counts and cuts exactly as the encoder does in-thread', async () => {
    const built = (await import(BUILT)) as typeof inThread;
    built.preloadTokenizer();
    for (const text of texts) {
      expect(await built.countTokens(text)).toBe(await countTokens(text));
      for (const limit of [0, 1, 7, 100, 10_000]) {
        expect(await built.cutToTokens(text, limit)).toEqual(await cutToTokens(text, limit));
      }
    }
    // Many requests in flight at once come back to the right callers.
    const counts = await Promise.all(texts.map((text) => built.countTokens(text)));
    expect(counts).toEqual(await Promise.all(texts.map((text) => countTokens(text))));
  });

  it('never keeps a process alive while idle', () => {
    const script = `const m = await import(${JSON.stringify(BUILT)}); m.preloadTokenizer(); await m.countTokens('x');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
    expect(child.error).toBeUndefined();
    expect(child.status).toBe(0);
  });
});
