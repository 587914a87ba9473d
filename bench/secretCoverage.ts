/**
 * The coverage table docs/security.md points to: for each credential kind of the corpus (test/repo/secrets/corpus.ts),
 * whether secretlint's recommended preset alone (default options) finds it, and which rule of our configuration
 * (preset with the AWS ID scan, plus our extra rule) redacts it. Run by `npm run bench`, or alone:
 * `npx tsx bench/secretCoverage.ts`.
 */
import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';

import { scanText } from '../src/repo/secrets/index.js';
import { corpusSecrets } from '../test/repo/secrets/corpus.js';

/** Where each kind sits in a file when it is scanned (a label where scanners need one). */
function placed(id: string, value: string): { path: string; text: string } {
  if (id.endsWith('_password') && id !== 'generic_password') {
    const scheme = id.startsWith('postgres') ? 'postgres' : id.startsWith('redis') ? 'redis' : 'https';
    return { path: 'config.ts', text: `const url = '${scheme}://app:${value}@db.internal:5432/x';\n` };
  }
  if (id === 'aws_secret_access_key') return { path: 'config.yaml', text: `aws_secret_access_key: ${value}\n` };
  if (id.startsWith('generic_')) return { path: 'config.yaml', text: `${id.slice(8)}: "${value}"\n` };
  return { path: 'index.ts', text: `const value = "${value}";\n` };
}

export async function coverageTable(): Promise<string[]> {
  const lines = ['| kind | corpus case | preset alone | redacted by |', '|---|---|---|---|'];
  for (const { id, kind, value } of corpusSecrets()) {
    const { path, text } = placed(id, value);
    const presetOnly = await lintSource({
      source: { content: text, filePath: path, ext: path.slice(path.lastIndexOf('.')), contentType: 'text' },
      options: { config: { rules: [{ id: 'preset', rule: preset }] }, noPhysicFilePath: true },
    });
    const start = text.indexOf(value);
    const covered = presetOnly.messages.some((m) => m.range[0] <= start + 4 && m.range[1] >= start + value.length);
    const partial =
      !covered && presetOnly.messages.some((m) => m.range[1] > start && m.range[0] < start + value.length);
    const ours = (await scanText(text, path)).filter((f) => f.start <= start && f.end >= start + value.length);
    lines.push(
      `| ${kind} | ${id} | ${covered ? 'yes' : partial ? 'partly' : 'no'} | ${ours.map((f) => `${f.kind} (\`${f.rule.replace('@secretlint/secretlint-rule-', 'preset: ').replace('mcp-model-input/secretlint-rule-', 'ours: ')}\`)`).join(', ') || '**missed**'} |`,
    );
  }
  return lines;
}

if (process.argv[1]?.endsWith('secretCoverage.ts')) {
  for (const line of await coverageTable()) console.log(line);
}
