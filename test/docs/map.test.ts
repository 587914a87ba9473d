/**
 * docs/README.md is the map of the docs: every page is on it, no page is missing from it, no two pages share a
 * title, and every relative link in README.md and docs/ leads to a file that exists (and to a heading that exists
 * when it names one). The docs stay a reference: their total size has a ceiling of its own (the last test).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT, anchors, h1, isExternal, links, markdownFiles, readDoc } from './markdown.js';

/** The ceiling on docs/*.md together, in bytes (`wc -c`): a reference, not a lab notebook. */
const DOCS_BYTES_MAX = 120 * 1024;

const files = markdownFiles();
const pages = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');

describe('the docs map (docs/README.md)', () => {
  const map = readDoc('docs/README.md');
  const linked = new Set(
    links('docs/README.md', map)
      .filter((link) => !isExternal(link.target) && !link.target.startsWith('#'))
      .map((link) => normalize(join('docs', link.target.split('#')[0]!))),
  );

  it('links every page in docs/', () => {
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('links only pages that exist', () => {
    const missing = [...linked].filter((target) => target.startsWith('docs/') && !existsSync(join(ROOT, target)));
    expect(missing).toEqual([]);
  });

  it('gives every page a title of its own', () => {
    const titles = new Map<string, string[]>();
    for (const file of files) {
      const title = h1(readDoc(file));
      expect(title, `${file} has no level-one heading`).toBeDefined();
      titles.set(title!, [...(titles.get(title!) ?? []), file]);
    }
    expect([...titles.values()].filter((same) => same.length > 1)).toEqual([]);
  });
});

describe('links in README.md and docs/', () => {
  it('lead to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readDoc(file);
      for (const link of links(file, text)) {
        if (isExternal(link.target)) continue;
        const [path, anchor] = link.target.split('#') as [string, string | undefined];
        const target = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        const where = `${file}:${link.line} -> ${link.target}`;
        if (relative(ROOT, join(ROOT, target)).startsWith('..')) {
          broken.push(`${where} (outside the repository)`);
        } else if (!existsSync(join(ROOT, target))) {
          broken.push(`${where} (no such file)`);
        } else if (anchor !== undefined && target.endsWith('.md') && statSync(join(ROOT, target)).isFile()) {
          if (!anchors(readDoc(target)).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the size of docs/', () => {
  it(`stays under ${DOCS_BYTES_MAX / 1024} KB in all`, () => {
    const sizes = files
      .filter((file) => file.startsWith('docs/'))
      .map((file) => [file, statSync(join(ROOT, file)).size] as const);
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    const largest = [...sizes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([file, size]) => `${file} ${size}`);
    expect(total, `docs/ is ${total} bytes; largest: ${largest.join(', ')}`).toBeLessThanOrEqual(DOCS_BYTES_MAX);
  });
});
