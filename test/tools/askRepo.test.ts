/**
 * ask_repo on the kit: every route (provider inline, MRTR host, 2025 live sampling, built-in, fallback) with the
 * model scripted; citations checked against the lines shown (one never read is removed and counted); explore mode
 * finds an answer in a file the ranking leaves out; the built-in retrieval cites real passages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { testModelTool } from '../../src/entries/testing.js';
import { BUILTIN_LABEL } from '../../src/tools/askRepo/builtin.js';
import { askRepo } from '../../src/tools/askRepo/tool.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { fakeModel, planOf } from '../kit/helpers.js';

let repo: FixtureRepo;
const filler = (name: string) =>
  Array.from({ length: 30 }, (_, i) => `export const ${name}${i} = ${i}; // ordinary code`).join('\n') + '\n';
beforeAll(async () => {
  const files: Record<string, string> = {
    'README.md': '# Demo\nA small service.\n',
    'package.json': '{"name":"demo","main":"src/index.ts"}\n',
    'src/index.ts': "import { retry } from './net/retry.js';\nexport const main = () => retry(3);\n",
    'src/net/retry.ts': [
      '// Retries with exponential backoff.',
      'export function retry(times: number): number {',
      '  let delay = 100;',
      '  for (let i = 0; i < times; i++) delay *= 2; // backoff doubles',
      '  return delay;',
      '}',
      '',
    ].join('\n'),
    'scratch/a/b/c/d/e/quota.txt': 'Quota: 42 requests per minute (zanzibar limit).\n',
    '.env': 'AWS_SECRET_ACCESS_KEY=abc\n',
  };
  for (let i = 0; i < 150; i++) files[`src/gen/module${i}.ts`] = filler(`value${i}`);
  repo = await makeTree(files);
});
afterAll(() => repo.cleanup());

const structured = (run: Awaited<ReturnType<typeof testModelTool>>) =>
  run.result?.structuredContent as {
    answer: string;
    citations: Array<{ path: string; lines: string; verified: boolean }>;
    removedCitations: number;
    filesRead: string[];
    routes: Array<{ step: string; route: string }>;
    usage: { modelCalls: number; inputBytes: number };
  };

const pickAnswer = JSON.stringify({ paths: ['src/net/retry.ts'] });
const goodAnswer = JSON.stringify({
  answer: 'Backoff doubles the delay each try (src/net/retry.ts:3-4).',
  citations: [{ path: 'src/net/retry.ts', lines: '2-5' }],
});

describe('ask_repo on each route', () => {
  it('MRTR host: two rounds (pick, answer), citations verified', async () => {
    const run = await testModelTool(askRepo, {
      client: 'mrtr-sampling',
      model: { pick: pickAnswer, answer: goodAnswer },
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root },
    });
    expect(run.rounds.map((round) => round.requests.map((r) => r.key.replace(/_\d+$/, '')))).toEqual([
      ['pick'],
      ['answer'],
    ]);
    const out = structured(run);
    expect(out.filesRead).toEqual(['src/net/retry.ts']);
    expect(out.citations).toEqual([
      { path: 'src/net/retry.ts', lines: '2-5', verified: true },
      { path: 'src/net/retry.ts', lines: '3-4', verified: true },
    ]);
    expect(out.removedCitations).toBe(0);
    expect(out.routes).toEqual([
      { step: 'pick', route: 'host' },
      { step: 'answer', route: 'host' },
    ]);
    expect(out.usage.modelCalls).toBe(2);
  });

  it('a citation of a file never read, or of lines past what was shown, is removed and counted', async () => {
    const run = await testModelTool(askRepo, {
      client: 'mrtr-sampling',
      model: {
        pick: pickAnswer,
        answer: JSON.stringify({
          answer: 'See src/net/retry.ts:2-5 and src/index.ts:1-2 and src/net/retry.ts:90-95.',
          citations: [{ path: 'README.md', lines: '1-2' }],
        }),
      },
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root },
    });
    const out = structured(run);
    expect(out.removedCitations).toBe(3);
    expect(out.answer).toBe(
      'See src/net/retry.ts:2-5 and [citation removed: never read] and [citation removed: never read].',
    );
    expect(out.citations.filter((c) => c.verified)).toEqual([
      { path: 'src/net/retry.ts', lines: '2-5', verified: true },
    ]);
    expect(run.result?.content[0]).toMatchObject({
      text: expect.stringContaining('3 citation(s) of lines never read'),
    });
  });

  it('2025-11-25 live sampling', async () => {
    const run = await testModelTool(askRepo, {
      client: 'legacy-sampling',
      model: { pick: pickAnswer, answer: goodAnswer },
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root },
    });
    expect(structured(run).routes.map((r) => r.route)).toEqual(['live', 'live']);
    expect(structured(run).removedCitations).toBe(0);
  });

  it('provider inline: a server-owned model answers, no round', async () => {
    const model = fakeModel('scripted', (prompt) => (prompt.includes('CANDIDATES:') ? pickAnswer : goodAnswer));
    const run = await testModelTool(askRepo, {
      client: 'mrtr-sampling',
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root, models: planOf({ kind: 'server', model }) },
    });
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[1]).toContain('=== FILE src/net/retry.ts (lines 1-6) ===');
    expect(run.rounds).toEqual([]);
    expect(structured(run).routes.map((r) => r.route)).toEqual(['provider', 'provider']);
    expect(structured(run).citations[0]).toMatchObject({ verified: true });
  });

  it('built-in (no sampling): deterministic retrieval, labelled, citing the passage that answers', async () => {
    const run = await testModelTool(askRepo, {
      client: 'mrtr-no-sampling',
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root },
    });
    const out = structured(run);
    expect(out.answer.startsWith(BUILTIN_LABEL)).toBe(true);
    expect(out.filesRead[0]).toBe('src/net/retry.ts');
    expect(out.citations[0]).toEqual({ path: 'src/net/retry.ts', lines: expect.stringMatching(/^1-/), verified: true });
    expect(out.removedCitations).toBe(0);
    expect(out.routes.map((r) => r.route)).toEqual(['builtin', 'builtin']);
    expect(out.filesRead).not.toContain('.env');
  });

  it('fallback: the user declines sampling, the built-in model answers', async () => {
    const run = await testModelTool(askRepo, {
      client: 'declines',
      args: { question: 'Where is the retry backoff handled?' },
      server: { root: repo.root },
    });
    expect(run.rounds[0]).toMatchObject({ declined: true });
    expect(structured(run).routes.map((r) => r.route)).toEqual(['builtin', 'builtin']);
  });
});

describe('ask_repo explore mode', () => {
  it('finds an answer in a file the ranking leaves out, by listing and reading', async () => {
    const script = [
      JSON.stringify({ action: 'list', path: 'scratch' }),
      JSON.stringify({ action: 'read', paths: ['scratch/a/b/c/d/e/quota.txt'] }),
      JSON.stringify({
        action: 'answer',
        answer: 'The ceiling is 42 per minute (scratch/a/b/c/d/e/quota.txt:1).',
        citations: [],
      }),
    ];
    const prompts: string[] = [];
    const run = await testModelTool(askRepo, {
      client: 'mrtr-sampling',
      model: (_step, request) => {
        prompts.push(JSON.stringify(request));
        return script[prompts.length - 1] ?? '';
      },
      args: { question: 'What is the throughput ceiling?', mode: 'explore' },
      server: { root: repo.root },
    });
    const out = structured(run);
    // The candidates shown first leave the file out: only listing the directory finds it.
    expect(prompts[0]).not.toContain('quota.txt');
    expect(prompts[1]).toContain('scratch/a/b/c/d/e/quota.txt');
    expect(run.rounds).toHaveLength(3);
    expect(out.filesRead).toEqual(['scratch/a/b/c/d/e/quota.txt']);
    expect(out.citations).toEqual([{ path: 'scratch/a/b/c/d/e/quota.txt', lines: '1', verified: true }]);
  });

  it('the built-in explore reads the best candidates and answers with their passages', async () => {
    const run = await testModelTool(askRepo, {
      client: 'mrtr-no-sampling',
      args: { question: 'retry backoff', mode: 'explore', maxFiles: 2 },
      server: { root: repo.root },
    });
    const out = structured(run);
    expect(out.filesRead.length).toBeLessThanOrEqual(2);
    expect(out.citations[0]).toMatchObject({ path: 'src/net/retry.ts', verified: true });
  });
});

describe('ask_repo in a linked work tree', () => {
  it('answers where .git is a file (git worktree, submodule): the git directory it names is used', async () => {
    const gitDir = await makeTree({ HEAD: 'ref: refs/heads/main\n' });
    const tree = await makeTree({
      '.git': `gitdir: ${gitDir.root}\n`,
      'src/retry.ts': 'export const retry = 1;\n',
    });
    try {
      const run = await testModelTool(askRepo, {
        client: 'mrtr-no-sampling',
        args: { question: 'retry' },
        server: { root: tree.root, repository: { listing: 'walker' } },
      });
      expect(structured(run).filesRead).toEqual(['src/retry.ts']);
    } finally {
      await tree.cleanup();
      await gitDir.cleanup();
    }
  });
});
