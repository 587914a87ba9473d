/** The redaction report of summarize_repo: entries merged per path and kind, bounded in the sealed state, counted. */
import { describe, expect, it } from 'vitest';

import {
  addRedactions,
  formatRedactionNote,
  redactFiles,
  type RedactionState,
} from '../../src/flows/summarizeRepo/redaction.js';
import { corpusSecrets } from '../repo/secrets/corpus.js';

const file = (path: string, content: string) => ({
  path,
  size: content.length,
  content,
  truncated: false,
  bytesShown: content.length,
  tokens: 1,
  encoding: 'utf8' as const,
});

describe('the redaction report', () => {
  it('counts per file and kind, and says "N secrets in M files"', async () => {
    const v = Object.fromEntries(corpusSecrets().map((secret) => [secret.id, secret.value]));
    const { files, entries } = await redactFiles([
      file('a.ts', `const a = '${v['github_classic']}';\nconst b = '${v['github_fine_grained']}';\n`),
      file('b.yaml', `key: ${v['google_api_key']}\n`),
      file('c.md', '# nothing here\n'),
    ]);
    expect(entries).toEqual([
      { path: 'a.ts', kind: 'GitHub token', count: 2 },
      { path: 'b.yaml', kind: 'Google API key', count: 1 },
    ]);
    expect(files[2]!.content).toBe('# nothing here\n');
    const state = addRedactions({}, entries);
    expect(formatRedactionNote(state)).toBe('3 secrets in 2 files were redacted.');
    expect(formatRedactionNote(addRedactions({}, [entries[1]!]))).toBe('1 secret in 1 file was redacted.');
    expect(formatRedactionNote({})).toBeUndefined();
  });

  it('keeps at most 16 entries in the state and still counts the rest', () => {
    const many = Array.from({ length: 40 }, (_, n) => ({ path: `f${n}.ts`, kind: 'JWT', count: 2 }));
    const empty: RedactionState = {};
    const state = addRedactions(addRedactions(empty, many.slice(0, 10)), many.slice(10));
    expect(state.redacted).toHaveLength(16);
    expect(state.redactedMore).toEqual({ secrets: 48, files: 24 });
    expect(formatRedactionNote(state)).toBe('80 secrets in 40 files were redacted.');
    const again = addRedactions(state, [{ path: 'f0.ts', kind: 'JWT', count: 1 }]);
    expect(again.redacted?.[0]).toEqual({ path: 'f0.ts', kind: 'JWT', count: 3 });
  });
});
