/** Builds the two summarize_repo prompts in the documented text format, as a server would. */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';

import type { ModelCompletionRequest } from '../../src/models/index.js';

export interface PromptFile {
  path: string;
  content: string;
  truncated?: boolean;
}

export function pickText(files: readonly [string, number][], maxFiles: number, repoName = 'acme'): string {
  return [
    `Repository: ${repoName}`,
    'Audience: developer',
    `Pick at most ${maxFiles} files that best show what this repository is, how it is organised and where it starts.`,
    'Answer with only a JSON array of file paths from the list below, for example ["README.md"].',
    '',
    `Candidate files (${files.length} listed of ${files.length}; path<TAB>bytes):`,
    ...files.map(([path, size]) => `${path}\t${size}`),
  ].join('\n');
}

export function summaryHeader(audience = 'developer', repoName = 'acme-repo'): string {
  return [
    `Repository: ${repoName}`,
    `Audience: ${audience}`,
    'Summarize the repository from the files below: what it is for, its main languages, how it is laid out, ' +
      'and where execution starts. Write for the audience named above, in at most 300 words of Markdown.',
  ].join('\n');
}

export function fileBlocks(files: readonly PromptFile[]): string {
  return files
    .map(
      (file) =>
        `<<<FILE path="${file.path}" bytes=${Buffer.byteLength(file.content)} truncated=${file.truncated ?? false}>>>\n` +
        `${file.content}\n<<<END FILE>>>`,
    )
    .join('\n');
}

export function summaryText(files: readonly PromptFile[], audience?: string): string {
  return `${summaryHeader(audience)}\n\n${fileBlocks(files)}`;
}

export function request(
  text: string,
  key = 'summary',
  extra: Partial<CreateMessageRequestParams> = {},
): ModelCompletionRequest {
  return {
    key,
    params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 1200, ...extra },
  };
}

export const NODE_PROJECT: [string, number][] = [
  ['.github/workflows/ci.yml', 600],
  ['LICENSE', 1070],
  ['README.md', 2400],
  ['docs/README.md', 500],
  ['docs/guide.md', 2000],
  ['package-lock.json', 120_000],
  ['package.json', 800],
  ['src/cli.ts', 900],
  ['src/index.ts', 1500],
  ['src/lib/parser.ts', 3000],
  ['test/index.test.ts', 1200],
  ['tsconfig.json', 400],
];

export const README = [
  '# Acme Widgets',
  '',
  '[![build](https://ci.example/badge.svg)](https://ci.example)',
  '',
  'Acme Widgets turns **YAML** specs into [REST](https://en.wikipedia.org/wiki/REST) servers. It is fast.',
  'It runs anywhere Node runs.',
  '',
  '## Install',
  '',
  '```sh',
  'npm install acme-widgets',
  '```',
].join('\n');

export const PACKAGE_JSON = JSON.stringify(
  {
    name: 'acme-widgets',
    description: 'Generate REST servers from YAML specs.',
    main: 'dist/index.js',
    bin: { acme: 'dist/cli.js' },
    scripts: { start: 'node dist/cli.js serve' },
  },
  null,
  2,
);

export const NODE_FILES: PromptFile[] = [
  { path: 'README.md', content: README },
  { path: 'package.json', content: PACKAGE_JSON },
  { path: 'src/index.ts', content: "export { serve } from './serve.js';" },
  { path: 'src/cli.ts', content: "import { serve } from './index.js';\nserve();" },
  { path: 'src/lib/parser.ts', content: 'export function parse(text: string) {', truncated: true },
];
