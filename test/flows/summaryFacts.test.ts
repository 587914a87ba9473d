/**
 * The repository facts reach every model path: the pick and summary prompts a host's model receives over MRTR
 * (where each round runs on a new flow instance, so the facts are computed again), and the structured result.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { silentLogger } from '../../src/logger.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { parseModelSpec } from '../../src/models/sources.js';
import type { RepoFacts } from '../../src/repo/index.js';
import { TempDirs, writeTree } from '../repo/fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

function recording(): { model: CompletionModel; prompts: Map<string, string> } {
  const builtin = createBuiltinModel();
  const prompts = new Map<string, string>();
  return {
    prompts,
    model: {
      name: 'recording',
      async complete(request) {
        const message = request.params.messages[0];
        const content = message !== undefined && !Array.isArray(message.content) ? message.content : undefined;
        if (content?.type === 'text') prompts.set(request.key, content.text);
        return builtin.complete(request);
      },
    },
  };
}

describe('facts in the prompts and the result', () => {
  it('gives the host model the facts of the whole repository, not only of the files read', async () => {
    const root = await temp.make('summary-facts-');
    const files: Record<string, string> = {
      'README.md': '# Using Homebrew\n\nbrew install tool\n',
      'go.mod': 'module github.com/example/tool\n',
      'main.go': 'package main\n\nfunc main() {}\n',
      Makefile: 'build:\n\tgo build\n',
    };
    for (let i = 0; i < 40; i++) files[`src/part${i}.go`] = `package src\n\n// part ${i}\n`;
    await writeTree(root, files);
    const { model, prompts } = recording();
    const result = await runLocalSummarize({
      root,
      args: { maxFiles: 2 },
      logger: silentLogger,
      models: parseModelSpec('host'),
      model,
    });
    const pick = prompts.get('pick_files') ?? '';
    expect(pick).toContain('- Main language: Go');
    expect(pick).toMatch(/- Entry points: main\.go \(Go main package at the module root\)/);
    const summary = prompts.get('summary') ?? '';
    expect(summary).toMatch(/^Repository facts \(computed from the whole listing of 44 files/m);
    expect(summary).toMatch(/^- Languages: Go 98% \(41 files\), Makefile 2% \(1 file\) — code by bytes, measured$/m);
    expect(summary).toMatch(/^- Layout: src\/ 40 files \(source, Go\)/m);
    const facts = (result.structuredContent as { facts?: RepoFacts }).facts;
    expect(facts?.mix.main).toEqual({ language: 'Go', of: 'code' });
    expect(facts?.project.name?.value).toBe('github.com/example/tool');
  });
});
