/**
 * review_changes on the kit: the working tree against HEAD and base..head of a real git repository; an AWS key
 * added (redacted everywhere a model sees it, reported as a finding); a secret-bearing file's diff withheld; the
 * repository's ignore files held; the deterministic checks; refs that are not commits or try to reach outside the
 * repository (-32602); an empty diff; a 50,000-line diff in bounded pieces; every route with the model scripted.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { testModelTool } from '../../src/entries/testing.js';
import { MAX_PIECES, PIECE_BYTES } from '../../src/tools/reviewChanges/pieces.js';
import { NOTHING_TO_REVIEW, reviewChanges } from '../../src/tools/reviewChanges/tool.js';
import { fakeModel, planOf } from '../kit/helpers.js';
import { git, TempDirs, writeTree } from '../repo/fixture.js';
import { secretValues } from '../repo/secrets/corpus.js';

const temp = new TempDirs();
const commit = (root: string, message: string): string =>
  git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', message]);

const secrets = secretValues();
const awsId = secrets['aws_access_key_id']!;
const awsSecret = secrets['aws_secret_access_key']!;

let root: string;
let clean: string;
beforeAll(async () => {
  root = await temp.make('review-');
  git(root, ['init', '-q']);
  await writeTree(root, {
    'package.json': '{"name":"demo","version":"1.0.0"}\n',
    'package-lock.json': '{"lockfileVersion":3}\n',
    'src/app.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    '.env': 'TOKEN=old\n',
    '.summarizeignore': 'generated/\n',
    'generated/out.ts': 'export const x = 1;\n',
  });
  git(root, ['add', '-A']);
  commit(root, 'initial');
  git(root, ['tag', 'v1']);
  await writeFile(path.join(root, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
  git(root, ['add', '-A']);
  commit(root, 'lock only');
  // The working tree: an AWS key added, a debug statement, a conflict marker, a secret file and an ignored file changed.
  await writeTree(root, {
    'src/app.ts': [
      'export function add(a: number, b: number): number {',
      '  console.log("adding", a, b);',
      '  return a + b;',
      '}',
      '<<<<<<< HEAD',
      '',
    ].join('\n'),
    'src/aws.ts': `export const ACCESS_KEY_ID = '${awsId}';\nexport const aws_secret_access_key = '${awsSecret}';\n`,
    '.env': 'TOKEN=new-value-never-shown\n',
    'generated/out.ts': 'export const x = 2;\n',
  });
  git(root, ['add', 'src/aws.ts']);
  clean = await temp.make('review-clean-');
  git(clean, ['init', '-q']);
  await writeTree(clean, { 'a.txt': 'a\n' });
  git(clean, ['add', '-A']);
  commit(clean, 'one');
});
afterAll(() => temp.cleanup());

interface Out {
  verdict: string;
  findings: Array<{ severity: string; path: string; line?: number; message: string; source: string }>;
  files: Array<{ path: string; status: string; withheld: boolean }>;
  ignored: number;
  pieces: number;
  notReviewed: string[];
  routes: Array<{ step: string; route: string }>;
  usage: { modelCalls: number; inputBytes: number; maxInputBytes: number };
  summary: string;
}
const out = (run: Awaited<ReturnType<typeof testModelTool>>) => run.result?.structuredContent as unknown as Out;

const modelReview = JSON.stringify({
  summary: 'Adds an AWS client.',
  verdict: 'comment',
  findings: [
    { severity: 'medium', path: 'src/app.ts', line: 2, message: 'logging in a hot path' },
    { severity: 'low', path: 'nowhere.ts', line: 1, message: 'a file not in the diff' },
  ],
});

describe('review_changes: the working tree against HEAD', () => {
  it('MRTR host: the model sees the diff with the key redacted; the key is reported; checks and verdict', async () => {
    const seen: string[] = [];
    const run = await testModelTool(reviewChanges, {
      client: 'mrtr-sampling',
      model: (_step, request) => {
        seen.push(JSON.stringify(request));
        return modelReview;
      },
      server: { root },
    });
    const result = out(run);
    expect(run.rounds).toHaveLength(1);
    expect(seen.join('')).not.toContain(awsId);
    expect(seen.join('')).not.toContain(awsSecret);
    expect(seen.join('')).toContain('[redacted: ');
    expect(seen.join('')).not.toContain('new-value-never-shown');
    expect(seen.join('')).not.toContain('generated/out.ts');
    expect(JSON.stringify(run.result)).not.toContain(awsId);
    expect(result.files.map((f) => f.path).sort()).toEqual(['.env', 'src/app.ts', 'src/aws.ts']);
    expect(result.files.find((f) => f.path === '.env')?.withheld).toBe(true);
    expect(result.ignored).toBe(1);
    const checks = result.findings.filter((f) => f.source === 'check');
    expect(checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'high',
          path: 'src/aws.ts',
          line: 1,
          message: expect.stringContaining('AWS'),
        }),
        expect.objectContaining({ severity: 'high', path: '.env', message: expect.stringContaining('not shown') }),
        expect.objectContaining({
          severity: 'high',
          path: 'src/app.ts',
          line: 5,
          message: expect.stringContaining('conflict'),
        }),
        expect.objectContaining({
          severity: 'low',
          path: 'src/app.ts',
          line: 2,
          message: expect.stringContaining('console.log'),
        }),
      ]),
    );
    expect(result.findings.filter((f) => f.source === 'model')).toEqual([
      { severity: 'medium', path: 'src/app.ts', line: 2, message: 'logging in a hot path', source: 'model' },
    ]);
    expect(result.verdict).toBe('request_changes');
    expect(result.routes).toEqual([{ step: 'review', route: 'host' }]);
  });

  it('built-in (no sampling): diffstat, files by kind, the deterministic findings', async () => {
    const run = await testModelTool(reviewChanges, { client: 'mrtr-no-sampling', server: { root } });
    const result = out(run);
    expect(run.rounds).toEqual([]);
    expect(result.summary).toContain('No language model reviewed this change');
    expect(result.summary).toMatch(/3 files changed \(\+\d+ -\d+\)/);
    expect(result.findings.every((f) => f.source === 'check')).toBe(true);
    expect(result.findings.some((f) => f.path === 'src/aws.ts' && f.severity === 'high')).toBe(true);
    const text = run.result?.content[0]?.type === 'text' ? run.result.content[0].text : '';
    expect(text).toContain('added    src/aws.ts');
    expect(text).not.toContain(awsId);
  });

  it('2025-11-25 live sampling, a provider inline, and the fallback after a declined round', async () => {
    const live = await testModelTool(reviewChanges, {
      client: 'legacy-sampling',
      model: () => modelReview,
      server: { root },
    });
    expect(out(live).routes).toEqual([{ step: 'review', route: 'live' }]);
    const model = fakeModel('scripted', () => modelReview);
    const inline = await testModelTool(reviewChanges, {
      client: 'mrtr-sampling',
      server: { root, models: planOf({ kind: 'server', model }) },
    });
    expect(inline.rounds).toEqual([]);
    expect(out(inline).routes).toEqual([{ step: 'review', route: 'provider' }]);
    expect(model.prompts.join('')).not.toContain(awsId);
    const declined = await testModelTool(reviewChanges, { client: 'declines', server: { root } });
    expect(declined.rounds[0]).toMatchObject({ declined: true });
    expect(out(declined).routes).toEqual([{ step: 'review', route: 'builtin' }]);
  });

  it('paths narrow the review', async () => {
    const run = await testModelTool(reviewChanges, {
      client: 'mrtr-no-sampling',
      args: { paths: ['src/app.ts'] },
      server: { root },
    });
    expect(out(run).files.map((f) => f.path)).toEqual(['src/app.ts']);
  });
});

describe('review_changes: base..head', () => {
  it('a lock file changed without its manifest', async () => {
    const run = await testModelTool(reviewChanges, {
      client: 'mrtr-no-sampling',
      args: { base: 'v1', head: 'HEAD' },
      server: { root },
    });
    const result = out(run);
    expect(result.files).toEqual(
      [{ path: 'package-lock.json', status: 'modified', withheld: false }].map((f) => expect.objectContaining(f)),
    );
    expect(result.findings).toEqual([
      expect.objectContaining({
        severity: 'low',
        path: 'package-lock.json',
        message: expect.stringContaining('package.json'),
      }),
    ]);
    expect(result.verdict).toBe('comment');
  });

  it.each([
    ['not a commit', { base: 'no-such-branch' }],
    ['an option', { base: '--upload-pack=touch /tmp/pwned' }],
    ['a path outside', { base: '../other' }],
    ['a NUL', { base: 'HEAD\u0000' }],
    ['head without base', { head: 'HEAD' }],
    ['head not a commit', { base: 'HEAD', head: 'HEAD:src/app.ts' }],
    ['a path outside the root', { paths: ['../x'] }],
  ])('%s: -32602', async (_what, args) => {
    const run = await testModelTool(reviewChanges, { client: 'mrtr-sampling', args, server: { root } });
    expect(run.error?.code).toBe(-32602);
    expect(run.error?.message).toMatch(/review_changes: /);
    expect(run.error?.message).not.toContain('upload-pack');
  });

  it('an empty diff: nothing to review, no model asked', async () => {
    const run = await testModelTool(reviewChanges, { client: 'mrtr-sampling', server: { root: clean } });
    expect(run.rounds).toEqual([]);
    expect(run.result?.content[0]).toMatchObject({ text: expect.stringContaining(NOTHING_TO_REVIEW) });
    expect(out(run).verdict).toBe('nothing_to_review');
  });
});

describe('review_changes: a 50,000-line diff', () => {
  it('is reviewed in bounded pieces with bounded model input, and completes', async () => {
    const big = await temp.make('review-big-');
    git(big, ['init', '-q']);
    await writeTree(big, { 'README.md': 'x\n' });
    git(big, ['add', '-A']);
    commit(big, 'one');
    const files: Record<string, string> = {};
    for (let f = 0; f < 50; f++) {
      files[`src/part${f}.ts`] =
        Array.from({ length: 1000 }, (_, i) => `export const v${f}_${i} = ${i};`).join('\n') + '\n';
    }
    await writeTree(big, files);
    git(big, ['add', '-A']);
    const model = fakeModel('scripted', (prompt) =>
      prompt.includes('PART SUMMARIES:')
        ? JSON.stringify({ summary: 'Adds constants.', verdict: 'approve' })
        : JSON.stringify({ summary: 'constants', findings: [] }),
    );
    const run = await testModelTool(reviewChanges, {
      client: 'mrtr-sampling',
      server: { root: big, models: planOf({ kind: 'server', model }) },
    });
    expect(run.error).toBeUndefined();
    expect(run.result?.isError).toBeUndefined();
    const result = out(run);
    expect(result.files).toHaveLength(50);
    expect(result.pieces).toBe(MAX_PIECES);
    expect(result.notReviewed.length).toBeGreaterThan(0);
    expect(result.usage.modelCalls).toBe(MAX_PIECES + 1);
    expect(result.usage.maxInputBytes).toBeLessThan(PIECE_BYTES + 4096);
    expect(result.verdict).toBe('approve');
    expect(model.prompts.every((prompt) => Buffer.byteLength(prompt) < PIECE_BYTES + 4096)).toBe(true);
  });
});
