import { describe, expect, it } from 'vitest';

import { createBuiltinModel } from '../../../../src/flows/summarizeRepo/builtin/model.js';
import type { ModelCompletionRequest } from '../../../../src/models/index.js';
import { NODE_FILES, README, fileBlocks, request, summaryHeader, summaryText } from '../../../models/prompts.js';
import type { PromptFile } from '../../../models/prompts.js';

const model = createBuiltinModel();

async function answer(req: ModelCompletionRequest): Promise<string> {
  const { content } = await model.complete(req);
  if (Array.isArray(content) || content.type !== 'text') throw new Error('expected a text answer');
  return content.text;
}

async function summarize(files: readonly PromptFile[], audience?: string, maxTokens = 1200): Promise<string> {
  return answer(request(summaryText(files, audience), 'summary', { maxTokens }));
}

function section(text: string, title: string): string {
  return text.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
}

describe('built-in summary', () => {
  it('takes the name and purpose from package.json and says it is a heuristic', async () => {
    const text = await summarize(NODE_FILES);
    expect(section(text, 'Project')).toContain('Name: **acme-widgets** (from package.json name)');
    expect(section(text, 'Project')).toContain('Purpose: Generate REST servers from YAML specs.');
    expect(text).toMatch(/built-in heuristic/);
    expect(text).toMatch(/not by a language model/);
  });

  it('falls back to the README heading and first prose paragraph, then to the repository line', async () => {
    const withoutManifest = NODE_FILES.filter((file) => file.path !== 'package.json');
    const project = section(await summarize(withoutManifest), 'Project');
    expect(project).toContain('Name: **Acme Widgets** (from README.md title)');
    expect(project).toContain(
      'Purpose: Acme Widgets turns YAML specs into REST servers. (from README.md first sentence)',
    );
    expect(project).not.toContain('badge');
    const sourceOnly = section(await summarize([{ path: 'main.go', content: 'package main' }]), 'Project');
    expect(sourceOnly).toContain('Name: **acme-repo** (from repository name)');
    expect(sourceOnly).toContain('Purpose: unknown');
  });

  it('trims a long purpose to about 300 characters', async () => {
    const long = `# Big\n\nBig ${'does this and that, '.repeat(40)}and more.`;
    const purpose = /Purpose: (.*) \(from/.exec(await summarize([{ path: 'README.md', content: long }]))?.[1] ?? '';
    expect(purpose.length).toBeGreaterThan(200);
    expect(purpose.length).toBeLessThanOrEqual(300);
    expect(purpose.endsWith('…')).toBe(true);
  });

  it('counts languages by extension and lists layout, entry points and what it read', async () => {
    const text = await summarize(NODE_FILES);
    expect(section(text, 'Languages').split('\n').slice(0, 3)).toEqual([
      '- TypeScript: 3 files',
      '- JSON: 1 file',
      '- Markdown: 1 file',
    ]);
    // Without the repository facts in the prompt, only the files read are counted, and the summary says so.
    expect(section(text, 'Languages')).toContain('_Counted: files read only._');
    expect(section(text, 'Layout')).toContain('`src/` 3 read');
    const entries = section(text, 'Entry points');
    expect(entries.split('\n')[0]).toBe('- `src/index.ts` — named like an entry point');
    expect(entries).toContain('`src/cli.ts` — named like an entry point');
    expect(entries).toContain('`dist/index.js` — package.json `main`, declared (not checked against the listing)');
    expect(entries).toContain('`dist/cli.js` — package.json `bin.acme`, declared (not checked against the listing)');
    const read = section(text, 'What it read');
    expect(read).toContain('`src/lib/parser.ts` (37 bytes, truncated');
    expect(read).toContain('`src/index.ts` (35 bytes)\n');
    expect(read).toContain('1 of 5 files were truncated.');
  });

  it('reads pyproject.toml names, descriptions and scripts, and an unterminated block as truncated', async () => {
    const pyproject = [
      '[build-system]',
      'requires = ["hatchling"]',
      '',
      '[project]',
      'name = "snake-tools"',
      "description = 'Small tools for snakes.'",
      '',
      '[project.scripts]',
      'snake = "snake_tools.cli:main"',
    ].join('\n');
    const text = `${summaryHeader()}\n\n${fileBlocks([{ path: 'pyproject.toml', content: pyproject }])}\n<<<FILE path="snake_tools/__main__.py" bytes=900 truncated=false>>>\nimport sys`;
    const summary = await answer(request(text));
    expect(summary).toContain('Name: **snake-tools** (from pyproject.toml name)');
    expect(summary).toContain('Purpose: Small tools for snakes.');
    expect(summary).toContain('`snake_tools.cli:main` — pyproject.toml `[project.scripts] snake`');
    expect(summary).toContain('`snake_tools/__main__.py` — named like an entry point');
    expect(summary).toContain('`snake_tools/__main__.py` (900 bytes, truncated');
    expect(summary).toContain('- Python: 1 file');
  });

  it('tailors only the opening line to the audience', async () => {
    const developer = await summarize(NODE_FILES, 'developer');
    const executive = await summarize(NODE_FILES, 'executive');
    expect(developer.split('\n')[0]).toBe(
      'Overview of **acme-widgets** for a developer audience: mostly TypeScript; start at `src/index.ts`.',
    );
    expect(executive.split('\n')[0]).toBe('**In one sentence:** acme-widgets — Generate REST servers from YAML specs.');
    expect(executive.split('\n').slice(1)).toEqual(developer.split('\n').slice(1));
  });

  it('is deterministic', async () => {
    expect(await summarize(NODE_FILES)).toBe(await summarize(NODE_FILES));
  });

  it('reads a single text block and an array of text blocks alike', async () => {
    const single = await summarize(NODE_FILES);
    const blocks = await answer({
      key: 'summary',
      params: {
        maxTokens: 1200,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: summaryHeader() },
              { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
              { type: 'text', text: fileBlocks(NODE_FILES) },
            ],
          },
        ],
      },
    });
    expect(blocks).toBe(single);
  });

  it('respects maxTokens (4 characters a token) and cuts at a line boundary with a note', async () => {
    const full = await summarize(NODE_FILES);
    for (const maxTokens of [60, 150]) {
      const cut = await summarize(NODE_FILES, 'developer', maxTokens);
      expect(cut.length).toBeLessThanOrEqual(maxTokens * 4);
      expect(cut).toMatch(/Cut to fit the length limit\. Built-in heuristic, not a language model\.\)_$/);
      const kept = cut.split('\n\n_(Cut')[0] ?? '';
      expect(full.startsWith(`${kept}\n`)).toBe(true);
    }
  });

  it('stays under 4,000 characters for many files', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      path: `packages/package-number-${i}/src/components/index.ts`,
      content: README,
    }));
    const text = await summarize(many, 'developer', 100_000);
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(text).toContain('- TypeScript: 120 files');
    expect(text).toContain('… and 108 more');
  });
});
