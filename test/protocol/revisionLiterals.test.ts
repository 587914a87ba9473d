/**
 * The protocol revisions are written once, in src/protocol/revisions.ts: everywhere else in src/ names them by their
 * constants (`MODERN_REVISION`, `LEGACY_REVISION`), so a revision moves in one place. Prose that mentions a revision
 * (comments, messages) is not a value and is not counted.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

/** A string literal whose whole value is a revision (not one quoted inside Markdown text). */
const LITERAL = /(?<![`\w])(['"])(\d{4}-\d{2}-\d{2})\1/g;
const REVISIONS = new Set(['2026-07-28', '2025-11-25']);

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('protocol revisions', () => {
  it('are string literals only in src/protocol/', async () => {
    const found: string[] = [];
    for (const file of await sources(path.resolve('src'))) {
      if (file.startsWith(path.resolve('src/protocol'))) continue;
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(LITERAL)) {
        if (REVISIONS.has(match[2]!)) found.push(`${path.relative(path.resolve('.'), file)}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('would be found where they are written (the check is not vacuous)', async () => {
    const text = await readFile(path.resolve('src/protocol/revisions.ts'), 'utf8');
    const values = [...text.matchAll(LITERAL)].map((match) => match[2]);
    expect(values).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
  });
});
