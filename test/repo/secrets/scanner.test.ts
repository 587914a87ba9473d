/**
 * The content redactor on the corpus: every supported kind inside ordinary files (string literals, a README code
 * block, YAML/TOML/JSON config, URLs with passwords, private-key blocks in source files) is replaced by its
 * marker, the rest of each file stays, and the false-positive cases come back byte for byte.
 */
import { performance } from 'node:perf_hooks';

import { describe, expect, it } from 'vitest';

import { formatRedactionMarker, redactText, redactTexts, scanText } from '../../../src/repo/secrets/index.js';
import { corpusSecrets, falsePositiveFiles, forbiddenStrings, ordinaryFiles, secretFiles } from './corpus.js';

describe('redactText on the credential corpus', () => {
  it('replaces every secret of every ordinary file, naming its kind', async () => {
    const redacted: Record<string, string> = {};
    for (const [path, text] of Object.entries(ordinaryFiles())) redacted[path] = (await redactText(text, path)).text;
    const all = Object.values(redacted).join('\n');
    for (const forbidden of forbiddenStrings()) expect(all).not.toContain(forbidden);
    for (const { kind } of corpusSecrets()) expect(all).toContain(formatRedactionMarker(kind));
  });

  it('keeps the rest of the line: names, hosts and code stay readable', async () => {
    const files = ordinaryFiles();
    const db = (await redactText(files['src/db.ts']!, 'src/db.ts')).text;
    expect(db).toContain("const url = 'postgres://app:[redacted: password in URL]@db.internal:5432/app';");
    const yaml = (await redactText(files['config/app.yaml']!, 'config/app.yaml')).text;
    expect(yaml).toContain('  access_key_id: [redacted: AWS access key]');
    expect(yaml).toContain('  password: "[redacted: secret value]"');
    expect(yaml).toContain('  port: 8080');
    const readme = (await redactText(files['README.md']!, 'README.md')).text;
    expect(readme).toContain('export OPENAI_API_KEY=[redacted: OpenAI API key]');
    expect(readme).toContain('# Demo service');
    const source = (await redactText(files['src/signing.ts']!, 'src/signing.ts')).text;
    expect(source).toContain('export const SIGNING_KEY = `[redacted: private key]`;');
    expect(source).toContain('export function sign(data: string): string {');
  });

  it("redacts a labelled AWS secret key whole (the preset's range stops short of its end)", async () => {
    const secret = corpusSecrets().find((entry) => entry.id === 'aws_secret_access_key')!.value;
    const { text } = await redactText(`aws_secret_access_key = ${secret}\nregion = eu-west-1\n`, 'credentials');
    for (let cut = 4; cut < secret.length; cut += 4) expect(text).not.toContain(secret.slice(-cut));
    expect(text).toContain('region = eu-west-1');
  });

  it('redacts the token of a `https://<token>:x-oauth-basic@github.com` URL, keeping the rest of the URL', async () => {
    // The unprefixed 40-hex form GitHub issued before `ghp_`: only its place in the URL tells it apart.
    const token = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
    const texts = [
      `  "repository": "git+https://${token}:x-oauth-basic@github.com/acme/demo.git",\n`,
      `git clone https://${token}:X-OAuth-Basic@github.com/acme/demo.git\n`,
    ];
    const results = await redactTexts(texts);
    expect(results.map((result) => result.text)).toEqual([
      '  "repository": "git+https://[redacted: GitHub token]:x-oauth-basic@github.com/acme/demo.git",\n',
      'git clone https://[redacted: GitHub token]:X-OAuth-Basic@github.com/acme/demo.git\n',
    ]);
    expect(results.map((result) => [...result.kinds])).toEqual([[['GitHub token', 1]], [['GitHub token', 1]]]);
    const alone = await redactText(texts[1]!);
    expect(alone.text).not.toContain(token);
  });

  it('redacts a private-key block cut off by a truncation (no END line)', async () => {
    const pem = corpusSecrets().find((entry) => entry.id === 'pem_rsa')!.value;
    const cut = `const key = \`${pem.slice(0, 300)}\n[… truncated: showing 300 of 9000 bytes]`;
    const { text } = await redactText(cut, 'src/key.ts');
    expect(text).toBe('const key = `[redacted: private key]');
  });

  it('scans several texts at once without one spilling into the next', async () => {
    const pem = corpusSecrets().find((entry) => entry.id === 'pem_rsa')!.value;
    const token = corpusSecrets().find((entry) => entry.id === 'github_classic')!.value;
    const texts = [`cut = \`${pem.slice(0, 300)}`, '# Next file\n\nPlain text.\n', `t = '${token}'`];
    const results = await redactTexts(texts);
    expect(results.map((result) => result.text)).toEqual([
      'cut = `[redacted: private key]',
      '# Next file\n\nPlain text.\n',
      "t = '[redacted: GitHub token]'",
    ]);
    expect(results.map((result) => result.count)).toEqual([1, 0, 1]);
    // A NUL inside a block does not end it.
    const [withNul] = await redactTexts([`k = \`${pem.slice(0, 200)}\0${pem.slice(200)}\``, 'next']);
    expect(withNul!.text).toBe('k = `[redacted: private key]`');
    const alone = await redactText(`k = \`${pem.slice(0, 200)}\0${pem.slice(200)}\``);
    expect(alone.text).toBe('k = `[redacted: private key]`');
  });

  it('leaves git SHAs, UUIDs, lock-file hashes, base64 test vectors and placeholders alone', async () => {
    for (const [path, text] of Object.entries(falsePositiveFiles())) {
      const result = await redactText(text, path);
      expect({ path, text: result.text, count: result.count }).toEqual({ path, text, count: 0 });
    }
  });

  it('a file cannot switch redaction off with a secretlint-disable comment', async () => {
    const token = corpusSecrets().find((entry) => entry.id === 'github_classic')!.value;
    const text = `// secretlint-disable\nconst t = '${token}';\n// secretlint-enable\n`;
    expect((await redactText(text, 'a.ts')).text).not.toContain(token);
  });

  it('secret files by name hold secrets too: their content is caught if one is ever let in', async () => {
    for (const [path, text] of Object.entries(secretFiles())) {
      // An SSH config holds no secret; Terraform state keeps values under generic `value` keys, which is one
      // reason such files are withheld by name rather than trusted to a content scan.
      if (path === '.ssh/config' || path.endsWith('.tfstate')) continue;
      expect({ path, count: (await redactText(text, path)).count > 0 }).toEqual({ path, count: true });
    }
  });

  it("keeps no profiler marks: scanning does not grow the process's performance timeline", async () => {
    await redactText('warm up', 'a.txt');
    const before = performance.getEntriesByType('mark').length;
    for (let index = 0; index < 50; index++) await redactText(`const a = ${index};\n`, `f${index}.ts`);
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });

  it('a text scanned again gets the same findings, as its own copy, and another path is scanned for that path', async () => {
    const text = ordinaryFiles()['src/db.ts']!;
    const first = await scanText(text, 'src/db.ts');
    expect(first.length).toBeGreaterThan(0);
    first[0]!.kind = 'changed by a caller';
    first[0]!.end = 0;
    const again = await scanText(text, 'src/db.ts');
    expect(again).not.toEqual(first);
    expect(again[0]!.kind).not.toBe('changed by a caller');
    expect(again[0]!.end).toBeGreaterThan(again[0]!.start);
    // The file-type rules depend on the path: the remembered scan of one path is not another's.
    const npmrc = secretFiles()['.npmrc']!;
    const named = await redactText(npmrc, '.npmrc');
    const unnamed = await redactText(npmrc, '');
    expect(unnamed.text).not.toBe(named.text);
    expect((await redactText(npmrc, '.npmrc')).text).toBe(named.text);
  });
});
