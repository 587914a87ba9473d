/**
 * The package as a user gets it: `npm pack` (of the dist/ this run built), installed into an empty
 * project from the tarball (dependencies from the npm cache; the registry is asked only for what the
 * cache lacks), then the installed binary: --version, the main job, and a stdio server answering
 * server/discover. A second tarball (the same build, another version) installed into a second project holds an
 * author's tool module: the first project's binary serves it with --tool-module (two copies of the kit).
 *
 * What the tarball holds is guarded from the same `npm pack` report: what users read (README, LICENSE, CHANGELOG,
 * the reference docs), what runs (dist/, schemas/) and nothing else, under a size bound.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeSampleRepo, type FixtureRepo } from './helpers/fixtureRepo.js';
import { meta } from './helpers/rawChannel.js';
import { V2_REQUEST_SAMPLING } from './migrate/servers.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 240_000;
let work: string;
let project: string;
let repo: FixtureRepo;
let bin: string;
let packedPaths: string[];
let unpackedSize: number;

/** The top of the tarball: package.json, what users read, what runs. */
const SHIPPED = /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+|schemas\/.+|docs\/[\w-]+\.md)$/;
/** docs/ pages for contributors or made of benchmark figures: they need a checkout, so they stay in it. */
const CHECKOUT_ONLY_DOCS = ['docs/testing.md', 'docs/performance.md'];
/** The unpacked size today is about 6.5 MB (dist/ most of it, its bundled CLI half of that): modest headroom. */
const UNPACKED_BYTES_MAX = 7.5 * 1000 ** 2;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mmi-package-'));
  repo = await makeSampleRepo();
  // dist/ was built by this run's global setup: pack it as it is (no prepack rebuild under running tests).
  // One `npm pack`: its JSON report lists the files the tarball holds (checked below).
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    timeout: 60_000,
  });
  const report = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }>; unpackedSize: number }>)[0];
  packedPaths = (report?.files ?? []).map((file) => file.path);
  unpackedSize = report?.unpackedSize ?? Infinity;
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  project = join(work, 'consumer');
  await run('mkdir', [project]);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball)], {
    cwd: project,
    timeout: INSTALL_TIMEOUT_MS,
  });
  bin = join(project, 'node_modules', '.bin', 'mcp-model-input');
}, INSTALL_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await repo?.cleanup();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('ships what it needs and nothing of the repository around it', async () => {
    const paths = packedPaths;
    expect(paths).toContain('dist/cli.js');
    expect(paths).toContain('dist/entries/server.js');
    expect(paths).toContain('LICENSE');
    expect(paths.filter((path) => /^(src|test|bench|eval|examples|scripts|conformance)\//.test(path))).toEqual([]);
  });

  it('ships README, LICENSE, CHANGELOG, dist/, schemas/ and the reference docs, and nothing else', async () => {
    expect(packedPaths.filter((path) => !SHIPPED.test(path))).toEqual([]);
    for (const file of [
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'docs/README.md',
      'docs/cli.md',
      'schemas/workflow.schema.json',
    ]) {
      expect(packedPaths).toContain(file);
    }
    const docs = (await readdir('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    const reference = docs.filter((doc) => !CHECKOUT_ONLY_DOCS.includes(doc));
    expect(packedPaths.filter((path) => path.startsWith('docs/')).sort()).toEqual(reference.sort());
  });

  it(`unpacks to at most ${UNPACKED_BYTES_MAX / 1000 ** 2} MB`, () => {
    expect(unpackedSize).toBeLessThanOrEqual(UNPACKED_BYTES_MAX);
  });

  it('prints its version', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const { stdout } = await run(bin, ['--version'], { cwd: project });
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('runs the main job on the built-in model', async () => {
    const { stdout } = await run(bin, ['summarize', repo.root], { cwd: project, timeout: 60_000 });
    expect(stdout).toContain('Written by the built-in heuristic');
  });

  it('migrates a server with the TypeScript compiler it installed (ts-morph stays outside the bundle)', async () => {
    const server = join(work, 'author-server');
    await run('mkdir', [server]);
    await writeFile(join(server, 'server.ts'), V2_REQUEST_SAMPLING['server.ts'] as string);
    const { stdout } = await run(bin, ['migrate', server], { cwd: project, timeout: 60_000 });
    expect(stdout).toContain("+    const explanation = await ctx.sample('explanation', {");
    expect(stdout).toContain('1 migrated, 0 flagged, 0 unsupported');
  });

  it(
    'serves a tool module that imports mcp-model-input/tool from another installed copy',
    async () => {
      // The second copy: the tarball unpacked, its version changed, packed and installed into the author's project.
      const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'))!;
      const unpacked = join(work, 'second');
      await run('mkdir', [unpacked]);
      await run('tar', ['-xzf', join(work, tarball), '-C', unpacked]);
      const manifest = join(unpacked, 'package', 'package.json');
      const pkg = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
      await writeFile(manifest, JSON.stringify({ ...pkg, version: `${pkg.version}-author` }));
      await run('npm', ['pack', '--ignore-scripts', '--pack-destination', unpacked], {
        cwd: join(unpacked, 'package'),
        timeout: 60_000,
      });
      const second = (await readdir(unpacked)).find((name) => name.endsWith('-author.tgz'))!;
      const author = join(work, 'author');
      await run('mkdir', [author]);
      await writeFile(join(author, 'package.json'), JSON.stringify({ name: 'author', private: true, type: 'module' }));
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(unpacked, second)], {
        cwd: author,
        timeout: INSTALL_TIMEOUT_MS,
      });
      await writeFile(
        join(author, 'echoTool.mjs'),
        [
          "import { defineModelTool } from 'mcp-model-input/tool';",
          "import { z } from 'zod';",
          'export default defineModelTool({',
          "  name: 'echo_model', description: 'Asks the model once.', input: z.object({ text: z.string() }),",
          "  steps: { say: {} }, builtin: { say: (_r, { prompt }) => ({ content: { type: 'text', text: `built-in: ${prompt}` } }) },",
          "  async run({ text }, ctx) { return (await ctx.sample('say', { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 })).text; },",
          '});',
        ].join('\n'),
      );
      const child = spawn(
        bin,
        ['serve', '--stdio', '--root', repo.root, '--tool-module', join(author, 'echoTool.mjs')],
        {
          cwd: project,
          stdio: 'pipe',
        },
      );
      try {
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const call = { name: 'echo_model', arguments: { text: 'hello' }, _meta: meta() };
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call })}\n`);
        const reply = JSON.parse(((await lines.next()).value as string) ?? '{}') as {
          result?: { content: Array<{ text: string }> };
        };
        expect(reply.result?.content[0]?.text).toBe('built-in: hello');
      } finally {
        child.kill();
      }
    },
    INSTALL_TIMEOUT_MS + 60_000,
  );

  it('serves stdio and answers server/discover', async () => {
    const child = spawn(bin, ['serve', '--stdio', '--root', repo.root], { cwd: project, stdio: 'pipe' });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } })}\n`,
      );
      const reply = JSON.parse(((await lines.next()).value as string) ?? '{}') as { result?: Record<string, unknown> };
      expect(reply.result?.['supportedVersions']).toEqual(['2026-07-28']);
    } finally {
      child.kill();
    }
  });
});
