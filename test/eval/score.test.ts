/** The scoring of `npm run eval`: what a summary says and which files were picked, against one expectation. */
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import type { Expectation } from '../../eval/score.js';
import { findCheckout, scoreRepository, summaryFields } from '../../eval/score.js';

const expectation: Expectation = {
  repo: 'junegunn/fzf',
  commit: '0'.repeat(40),
  shape: 'cli',
  names: ['fzf'],
  purpose: [['fuzzy'], ['finder', 'find']],
  mainLanguage: 'Go',
  picks: [['README.md'], ['go.mod'], ['main.go', 'src/core.go']],
  entryPoint: ['main.go'],
};

const summary = [
  'Overview of **fzf** for a developer audience: mostly Go; start at `main.go`.',
  '',
  '## Project',
  '- Name: **FZF** (from go.mod module)',
  '- Purpose: fzf is a general-purpose command-line fuzzy finder. (from README.md)',
  '- Main language: **Go** (92% of the code by bytes)',
].join('\n');

describe('eval scoring', () => {
  it('reads the fields the built-in summary writes', () => {
    expect(summaryFields(summary)).toEqual({
      name: 'FZF',
      purpose: 'fzf is a general-purpose command-line fuzzy finder. (from README.md)',
      mainLanguage: 'Go',
      entryPoint: 'main.go',
    });
  });

  it('meets every measure when the summary and the picks match', () => {
    const score = scoreRepository(expectation, summary, ['README.md', 'go.mod', 'src/core.go']);
    expect(score).toEqual({
      name: true,
      purpose: true,
      mainLanguage: true,
      entryPoint: true,
      picks: true,
      misses: [],
    });
  });

  it('misses each measure on its own and says why', () => {
    const wrong = summary
      .replace('**FZF**', '**Using Homebrew**')
      .replace('fuzzy finder', 'tool')
      .replace('**Go**', '**Makefile**')
      .replace('`main.go`', '`CHANGELOG.md`');
    const score = scoreRepository(expectation, wrong, ['README.md', 'Makefile', 'main.go']);
    expect(score).toMatchObject({ name: false, purpose: false, mainLanguage: false, entryPoint: false, picks: false });
    expect(score.misses).toHaveLength(5);
    expect(score.misses[3]).toContain('got "CHANGELOG.md"');
    expect(score.misses[4]).toContain('miss go.mod');
  });

  it('expects no file to start at in a repository without code', () => {
    const docs = { ...expectation, entryPoint: [] };
    expect(scoreRepository(docs, summary, []).entryPoint).toBe(false);
    expect(scoreRepository(docs, summary.replace('; start at `main.go`', ''), []).entryPoint).toBe(true);
  });

  it('finds checkouts named owner--name, owner+name or name', () => {
    expect(findCheckout('junegunn/fzf', ['x', 'junegunn--fzf'])).toBe('junegunn--fzf');
    expect(findCheckout('junegunn/fzf', ['junegunn+fzf'])).toBe('junegunn+fzf');
    expect(findCheckout('junegunn/fzf', ['fzf'])).toBe('fzf');
    expect(findCheckout('junegunn/fzf', ['fzf-fork'])).toBeUndefined();
  });

  it('keeps an expectations file of at least 50 repositories, the languages of every convention and five monorepos', async () => {
    const file = new URL('../../eval/expectations.json', import.meta.url);
    const { repositories } = JSON.parse(await readFile(file, 'utf8')) as { repositories: Expectation[] };
    expect(repositories.length).toBeGreaterThanOrEqual(50);
    const languages = new Set(repositories.map((entry) => entry.mainLanguage));
    for (const language of ['Go', 'Python', 'Rust', 'TypeScript', 'JavaScript', 'Java', 'C', 'C++', 'C#', 'Kotlin'])
      expect(languages).toContain(language);
    for (const language of ['Swift', 'PHP', 'Ruby', 'Elixir', 'Crystal', 'Haskell', 'Shell'])
      expect(languages).toContain(language);
    expect(repositories.filter((entry) => entry.shape.includes('monorepo')).length).toBeGreaterThanOrEqual(5);
    const shapes = repositories.map((entry) => entry.shape).join(' ');
    for (const shape of ['library', 'cli', 'web framework', 'monorepo', 'docs-heavy', 'tiny'])
      expect(shapes).toContain(shape);
    for (const entry of repositories) {
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.picks.length).toBeGreaterThan(0);
      expect(Array.isArray(entry.entryPoint)).toBe(true);
    }
  });
});
