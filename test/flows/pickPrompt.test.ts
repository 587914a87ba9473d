/**
 * The pick prompt under its byte budget at any repository size, the summary budgets, the final-text cap, and the
 * flow accepting listed files the prompt never showed.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { isModelInputError } from '../../src/errors.js';
import { createSummarizeRepoFlow, type SummarizeState } from '../../src/flows/summarizeRepo/flow.js';
import {
  buildPickRequest,
  buildSummaryRequest,
  capResultText,
  DEFAULT_BUDGETS,
  resolveBudgets,
} from '../../src/flows/summarizeRepo/prompts.js';
import type { SummarizeRepoArgs } from '../../src/flows/summarizeRepo/schema.js';
import { parseFileBlocks } from '../../src/flows/summarizeRepo/builtin/fileBlocks.js';
import { parsePickPrompt } from '../../src/flows/summarizeRepo/builtin/pick.js';
import { countTokens, openRepository, type RepoFacts, type RepoSurvey } from '../../src/repo/index.js';
import { buildOutline } from '../../src/repo/outline.js';
import { rankFiles } from '../../src/repo/rank.js';
import { TempDirs, writeTree } from '../repo/fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A survey of `count` synthetic files as the repository gives it: an outline of all, a few thousand candidates. */
function syntheticSurvey(count: number): RepoSurvey {
  const files = Array.from({ length: count }, (_, i) => ({
    path: `packages/pkg${i % 97}/src/module${i % 13}/file${i}.ts`,
    size: 100 + (i % 5000),
  }));
  files.push({ path: 'README.md', size: 4000 }, { path: 'package.json', size: 900 });
  const inspected = files.length <= 3002 ? files : [...files.slice(0, 3000), ...files.slice(-2)];
  const outline = buildOutline(
    files.map((file) => file.path),
    '',
  );
  return {
    base: '',
    source: { kind: 'git' },
    total: files.length,
    outline: outline.entries,
    outlineRest: outline.rest,
    candidates: rankFiles(inspected),
    inspected: inspected.length,
    history: false,
    skipped: [],
  };
}

const textOf = (params: { messages: { content: unknown }[] }): string =>
  (params.messages[0]?.content as { text: string }).text;

describe('pick prompt', () => {
  it.each([100, 100_000])('stays within the default budget at %i files, with outline and candidates', (count) => {
    const survey = syntheticSurvey(count);
    const { params, listed } = buildPickRequest({ repoName: 'big', audience: 'developer', maxFiles: 3, survey });
    const text = textOf(params);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DEFAULT_BUDGETS.pickPromptBytes);
    expect(text).toContain(`Layout of the repository (${count + 2} files listed; top directories by file count):`);
    expect(text).toMatch(/^packages\/ — \d+ files \(TypeScript \d+%/m);
    expect(text).toContain(`Candidate files (${listed} listed of ${count + 2}; best first; path<TAB>bytes):`);
    expect(text).toMatch(/^README\.md\t4000$/m);
    // The built-in model reads exactly the shown candidates (the outline is not mistaken for candidates).
    const parsed = parsePickPrompt(text);
    expect(parsed.candidates).toHaveLength(listed);
    expect(parsed.candidates[0]).toEqual({ path: 'README.md', size: 4000 });
    expect(parsed.limit).toBe(3);
    if (count === 100) expect(listed).toBe(102);
    else expect(Buffer.byteLength(text)).toBeGreaterThan(DEFAULT_BUDGETS.pickPromptBytes - 200);
  });

  it('honours a configured budget', () => {
    const survey = syntheticSurvey(5000);
    const small = buildPickRequest({ repoName: 'r', audience: 'a', maxFiles: 2, survey, budgetBytes: 2048 });
    expect(Buffer.byteLength(textOf(small.params))).toBeLessThanOrEqual(2048);
    expect(small.listed).toBeGreaterThan(5);
    const large = buildPickRequest({ repoName: 'r', audience: 'a', maxFiles: 2, survey, budgetBytes: 64 * 1024 });
    expect(large.listed).toBeGreaterThan(small.listed * 10);
  });

  it('keeps the repository facts within the budget too, and the candidates readable after them', () => {
    const facts: RepoFacts = {
      files: 100_002,
      mix: {
        languages: [{ language: 'TypeScript', files: 100_000, bytes: 9_000_000 }],
        main: { language: 'TypeScript', of: 'code' },
        documentation: { files: 1, languages: ['Markdown'] },
        vendored: 0,
        generated: 0,
        other: 1,
        bytes: 'estimated',
        sampled: 5000,
      },
      layout: {
        directories: Array.from({ length: 12 }, (_, i) => ({
          dir: `${'deep-'.repeat(30)}${i}/`,
          files: 9,
          role: 'source' as const,
        })),
        rest: { dirs: 80, files: 900 },
        rootFiles: 2,
      },
      manifests: Array.from({ length: 8 }, (_, i) => ({
        path: `${'m/'.repeat(60)}package${i}.json`,
        kind: 'npm' as const,
        language: 'TypeScript',
        name: 'x'.repeat(100),
      })),
      entryPoints: Array.from({ length: 6 }, (_, i) => ({
        path: `src/${'e'.repeat(200)}${i}.ts`,
        via: 'package.json `exports`',
      })),
      commands: [],
      project: { name: { value: 'x'.repeat(100), from: 'package.json name' } },
    };
    for (const budgetBytes of [1024, 4096, DEFAULT_BUDGETS.pickPromptBytes]) {
      const survey = { ...syntheticSurvey(100_000), facts };
      const { params, listed } = buildPickRequest({
        repoName: 'big',
        audience: 'developer',
        maxFiles: 3,
        survey,
        budgetBytes,
      });
      const text = textOf(params);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budgetBytes);
      expect(parsePickPrompt(text).candidates).toHaveLength(listed);
      if (budgetBytes >= 4096) expect(text).toContain('- Main language: TypeScript');
    }
  });

  it('validates budgets', () => {
    expect(resolveBudgets()).toEqual(DEFAULT_BUDGETS);
    expect(resolveBudgets({ pickPromptBytes: 4096 }).pickPromptBytes).toBe(4096);
    for (const bad of [{ pickPromptBytes: 100 }, { resultTokens: 0 }, { fileBytes: 1.5 }, { totalTokens: -1 }]) {
      const error: unknown = (() => {
        try {
          return resolveBudgets(bad);
        } catch (caught) {
          return caught;
        }
      })();
      expect(isModelInputError(error) && error.code).toBe('config_invalid');
    }
  });
});

describe('final text cap', () => {
  it('keeps a short summary whole and cuts a long one under the token budget, with a note', async () => {
    expect(await capResultText('A short summary.', 25_000)).toEqual({ text: 'A short summary.', cut: false });
    const long = 'The repository holds many things. '.repeat(5_000);
    const { text, cut } = await capResultText(long, 1_000);
    expect(cut).toBe(true);
    expect(text).toMatch(/\[… summary cut to about 1000 tokens\]$/);
    expect(await countTokens(text)).toBeLessThanOrEqual(1_000);
  });
});

describe('summarize_repo flow with budgets', () => {
  const args: SummarizeRepoArgs = { maxFiles: 2, mode: 'pick' };
  const signal = new AbortController().signal;
  const answer = (text: string) => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text },
    model: 'm',
  });

  it('accepts a listed file the pick prompt did not show, and caps the final text', async () => {
    const root = await temp.make();
    const files: Record<string, string> = { 'README.md': '# Many\n\nA tree with many files.\n' };
    for (let i = 0; i < 400; i++) files[`area${i % 20}/part/file${i}.txt`] = `content ${i}\n`;
    await writeTree(root, files);
    const flow = createSummarizeRepoFlow(() => openRepository(root), { pickPromptBytes: 1024, resultTokens: 60 });

    let state: SummarizeState = flow.initial(args);
    const pick = await flow.step(state).prepare(args, state, signal);
    if (!('params' in pick)) throw new Error('expected a pick request');
    const pickText = textOf(pick.params);
    expect(Buffer.byteLength(pickText)).toBeLessThanOrEqual(1024);
    expect(pickText).not.toContain('area7/part/file387.txt');
    state = pick.state ?? state;
    expect(state).toMatchObject({ phase: 'pick', candidates: { total: 401 } });

    const accepted = await flow
      .step(state)
      .accept(args, state, answer('["area7/part/file387.txt", "README.md"]'), signal);
    if (!('next' in accepted)) throw new Error('expected the summary step');
    state = accepted.next;
    expect(state).toMatchObject({ picked: ['area7/part/file387.txt', 'README.md'], dropped: [] });

    const summary = await flow.step(state).prepare(args, state, signal);
    if (!('params' in summary)) throw new Error('expected a summary request');
    state = summary.state ?? state;
    expect(state.phase === 'summary' && state.files?.map((file) => [file.path, typeof file.tokens])).toEqual([
      ['area7/part/file387.txt', 'number'],
      ['README.md', 'number'],
    ]);

    const done = await flow.step(state).accept(args, state, answer('word '.repeat(2_000)), signal);
    if (!('done' in done)) throw new Error('expected a result');
    const [first] = done.done.content as { type: 'text'; text: string }[];
    expect(first?.text).toMatch(/\[… summary cut to about 60 tokens\]$/);
    expect(await countTokens(first?.text ?? '')).toBeLessThanOrEqual(60);
    expect((done.done.structuredContent as { notes: string[] }).notes).toContain(
      'The summary was cut to about 60 tokens (the result budget).',
    );
  });
});

describe('summary prompt', () => {
  it('flags files that are not plain UTF-8 in their block header, readable by the built-in model', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'plain.md': 'plain\n',
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'wide.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide', 'utf16le')]),
    });
    const read = await (
      await openRepository(root)
    ).read(['plain.md', 'latin1.txt', 'wide.txt'], {
      perFileBytes: 3,
      totalBytes: 100,
    });
    const text = textOf(buildSummaryRequest({ repoName: 'r', audience: 'a', files: read.files }));
    expect(text).toContain('<<<FILE path="plain.md" bytes=6 truncated=true>>>');
    // Cut after 3 bytes, the Latin-1 file is still valid UTF-8 ("caf"): no flag.
    expect(text).toContain('<<<FILE path="latin1.txt" bytes=5 truncated=true>>>');
    expect(text).toContain('<<<FILE path="wide.txt" bytes=10 truncated=true encoding=utf16le>>>');
    const blocks = parseFileBlocks(text).blocks;
    expect(blocks.map((block) => [block.path, block.truncated])).toEqual([
      ['plain.md', true],
      ['latin1.txt', true],
      ['wide.txt', true],
    ]);
  });

  it('flags invalid bytes as replaced', async () => {
    const root = await temp.make();
    await writeTree(root, { 'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const read = await (await openRepository(root)).read(['latin1.txt'], { perFileBytes: 100, totalBytes: 100 });
    const text = textOf(buildSummaryRequest({ repoName: 'r', audience: 'a', files: read.files }));
    expect(text).toContain('<<<FILE path="latin1.txt" bytes=5 truncated=false encoding=replaced>>>\ncaf\uFFFD\n');
  });
});
