/** The built-in pick with the prompt's repository facts: README, primary manifest, entry point, then the ranking. */
import { describe, expect, it } from 'vitest';

import { formatPickFacts } from '../../../../src/flows/summarizeRepo/factsText.js';
import { answerPick, parsePickPrompt } from '../../../../src/flows/summarizeRepo/builtin/pick.js';
import type { RepoFacts } from '../../../../src/repo/index.js';
import { pickText } from '../../../models/prompts.js';

const FACTS: RepoFacts = {
  files: 120,
  mix: {
    languages: [{ language: 'Go', files: 90, bytes: 500_000 }],
    main: { language: 'Go', of: 'code' },
    documentation: { files: 3, languages: ['Markdown'] },
    vendored: 0,
    generated: 0,
    other: 4,
    bytes: 'measured',
    sampled: 120,
  },
  layout: {
    directories: [{ dir: 'src/', files: 100, role: 'source', language: 'Go' }],
    rest: { dirs: 0, files: 0 },
    rootFiles: 8,
  },
  manifests: [
    { path: 'go.mod', kind: 'go', language: 'Go', name: 'github.com/x/tool' },
    { path: 'Makefile', kind: 'make', language: 'Makefile' },
  ],
  entryPoints: [{ path: 'cmd/tool/main.go', via: 'Go command under cmd/' }],
  commands: [],
  project: { name: { value: 'github.com/x/tool', from: 'go.mod module' } },
};

function withFacts(files: [string, number][], maxFiles: number): string {
  const [head, list] = pickText(files, maxFiles).split('\n\n');
  return [head, '', ...formatPickFacts(FACTS, 2000), '', list].join('\n');
}

const CANDIDATES: [string, number][] = [
  ['README.md', 3000],
  ['Makefile', 900],
  ['Gemfile', 100],
  ['.pre-commit-config.yaml', 300],
  ['.github/pull_request_template.md', 200],
  ['go.mod', 300],
  ['src/core.go', 4000],
];

describe('built-in pick with repository facts', () => {
  it('takes README, the primary manifest and the entry point (even unshown) before other build files', () => {
    expect(JSON.parse(answerPick(withFacts(CANDIDATES, 3)))).toEqual(['README.md', 'go.mod', 'cmd/tool/main.go']);
    expect(JSON.parse(answerPick(withFacts(CANDIDATES, 2)))).toEqual(['README.md', 'go.mod']);
    expect(JSON.parse(answerPick(withFacts(CANDIDATES, 1)))).toEqual(['README.md']);
  });

  it('fills the rest from the ranking, and ranks as before without facts', () => {
    const five = JSON.parse(answerPick(withFacts(CANDIDATES, 5))) as string[];
    expect(five.slice(0, 3)).toEqual(['README.md', 'go.mod', 'cmd/tool/main.go']);
    expect(five).toHaveLength(5);
    expect(parsePickPrompt(pickText(CANDIDATES, 3)).preferred).toBeUndefined();
    expect(JSON.parse(answerPick(pickText(CANDIDATES, 3)))).not.toContain('cmd/tool/main.go');
  });

  it('takes changelogs, licences, contribution guides and agent instructions only when nothing else is left', () => {
    const files: [string, number][] = [
      ['README.md', 3000],
      ['shard.yml', 300],
      ['CHANGELOG.md', 9000],
      ['CONTRIBUTING.md', 4000],
      ['AGENTS.md', 2000],
      ['LICENSE', 1000],
      ['src/web/router.cr', 4000],
    ];
    expect(JSON.parse(answerPick(pickText(files, 3)))).toEqual(['README.md', 'shard.yml', 'src/web/router.cr']);
    expect(JSON.parse(answerPick(pickText(files, 5)))).toHaveLength(5);
  });
});
