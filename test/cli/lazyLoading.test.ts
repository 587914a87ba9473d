import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/rawChannel.js';

const RECORDER = fileURLToPath(new URL('../fixtures/loadRecorder.mjs', import.meta.url));
const COMMANDS = ['serve', 'summarize', 'ask', 'review', 'plan', 'migrate', 'audit', 'call', 'discover', 'keygen'];
/** Never needed to print a version or a help text, nor to answer server/discover. */
const HEAVY = [
  'openai',
  '@anthropic-ai/sdk',
  'gpt-tokenizer',
  '@clack/prompts',
  '@clack/core',
  'yaml',
  'ajv',
  'ts-morph',
];

interface Run {
  code: number | null;
  stdout: string;
  /** Packages (under node_modules) whose files the process loaded. */
  packages: Set<string>;
  /** Loaded files of this project's build (dist/…). */
  own: string[];
  /** The same two, up to the process's first write to stdout (a stdio server's first answer). */
  beforeFirstAnswer: { packages: Set<string>; own: string[] };
  /** Node's HTTP stack (undici) was loaded. */
  httpStack: boolean;
}

/** Where in the record the process first wrote to stdout (test/fixtures/loadRecorder.mjs). */
const FIRST_STDOUT_WRITE = 'FIRST-STDOUT-WRITE';

/**
 * The CLI runs bundled (scripts/bundleCli.mjs): a loaded bundle file stands for the modules it carries, listed by the
 * bundler in dist/cli-chunks/modules.json (paths from the project root). A file is loaded whole, so this is what
 * the process loaded, module by module.
 */
function unbundled(loaded: string[]): string[] {
  const dist = new URL('../../dist/', import.meta.url);
  const modules = JSON.parse(readFileSync(new URL('cli-chunks/modules.json', dist), 'utf8')) as Record<
    string,
    string[]
  >;
  const root = fileURLToPath(new URL('..', dist));
  return loaded.flatMap((entry) => {
    const match = /\/dist\/(cli\.js|cli-chunks\/[^/]+\.js)$/.exec(entry);
    const inputs = match?.[1] === undefined ? undefined : modules[match[1]];
    return inputs === undefined ? [entry] : inputs.map((input) => join(root, input));
  });
}

function packagesOf(loaded: string[]): Set<string> {
  const packages = new Set<string>();
  for (const entry of loaded) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(entry);
    if (match?.[1] !== undefined) packages.add(match[1]);
  }
  return packages;
}

function ownOf(loaded: string[]): string[] {
  return loaded.filter((entry) => entry.includes('/dist/')).map((entry) => entry.replace(/^.*\/dist\//, ''));
}

interface RunOptions {
  /** Goes to stdin, which stays open until `until` matches stdout (and `holdUntil` stderr), else is closed at once. */
  input?: string;
  until?: RegExp;
  /** With live load lines on (MMI_RECORD_LIVE): stdin also stays open until stderr matches this. */
  holdUntil?: RegExp;
}

/** Runs the built CLI under the load recorder. */
function run(args: string[], options: RunOptions = {}): Promise<Run> {
  const { input = '', until, holdUntil } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RECORDER, CLI, ...args], {
      stdio: 'pipe',
      env: { ...process.env, ...(holdUntil !== undefined && { MMI_RECORD_LIVE: '1' }) },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stdout = '';
    let stderr = '';
    const maybeEnd = (): void => {
      if (until?.test(stdout) && (holdUntil === undefined || holdUntil.test(stderr))) child.stdin.end();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      maybeEnd();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      maybeEnd();
    });
    child.stdin.write(input);
    if (until === undefined) child.stdin.end();
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = stderr.split('\n').find((text) => text.startsWith('LOADED '));
      if (line === undefined) return reject(new Error(`no load record (exit ${code}): ${stderr}`));
      const record = JSON.parse(line.slice('LOADED '.length)) as string[];
      const marker = record.indexOf(FIRST_STDOUT_WRITE);
      const loaded = unbundled(record);
      const before = unbundled(marker < 0 ? record : record.slice(0, marker));
      resolve({
        code,
        stdout,
        packages: packagesOf(loaded),
        own: ownOf(loaded),
        beforeFirstAnswer: { packages: packagesOf(before), own: ownOf(before) },
        httpStack: record.includes('node:internal/deps/undici/undici'),
      });
    });
  });
}

/** The bundle file that carries one of our modules (dist/…), as a pattern for a live `LOADING` line. */
function loadingOf(module: string): RegExp {
  const modules = JSON.parse(
    readFileSync(new URL('../../dist/cli-chunks/modules.json', import.meta.url), 'utf8'),
  ) as Record<string, string[]>;
  const file = Object.entries(modules).find(([, inputs]) => inputs.includes(`dist/${module}`))?.[0];
  if (file === undefined) throw new Error(`no bundle file carries ${module}`);
  return new RegExp(`LOADING \\S+/dist/${file.replaceAll('.', '\\.')}\n`);
}

describe('the CLI loads a command only when it runs', () => {
  it('loads no package at all for --version and --help', async () => {
    for (const args of [['--version'], ['--help']]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect([...result.packages], args.join(' ')).toEqual([]);
      expect(result.own.sort(), args.join(' ')).toEqual([
        'cli.js',
        'cli/helpText.js',
        'cli/io.js',
        'cli/main.js',
        'cli/usage.js',
        'errors.js',
        'version.js',
      ]);
    }
  });

  it.each(COMMANDS)("loads no package for '%s --help'", async (command) => {
    const result = await run([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`mcp-model-input ${command}`);
    expect([...result.packages]).toEqual([]);
    expect(result.own.filter((file) => !file.startsWith('cli')).sort()).toEqual(['errors.js', 'version.js']);
  });

  it('the recorder sees what a command loads (it would catch a heavy import)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mmi-lazy-'));
    try {
      const workflow = join(dir, 'workflow.yaml');
      await writeFile(workflow, 'name: demo\n');
      const result = await run(['plan', workflow]);
      // `plan` reads YAML: the recorder must see the package (and the CLI's own modules of that command).
      expect(result.packages.has('yaml')).toBe(true);
      expect(result.packages.has('ajv')).toBe(true);
      expect(result.own).toContain('cli/plan.js');
      // The TypeScript compiler is for reading code only: a workflow file never loads it.
      expect(result.packages.has('ts-morph')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads ts-morph for migrate and plan --from-source, and only there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mmi-lazy-'));
    try {
      await writeFile(join(dir, 'server.ts'), 'export const nothing = 1;\n');
      for (const args of [
        ['migrate', dir],
        ['plan', '--from-source', dir],
      ]) {
        const result = await run(args);
        expect(result.packages.has('ts-morph'), args.join(' ')).toBe(true);
        expect(
          result.own.some((file) => file.startsWith('migrate/')),
          args.join(' '),
        ).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('serve --stdio answers server/discover without the heavy legs', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mmi-lazy-serve-'));
    await writeFile(join(root, 'README.md'), '# demo\n');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
  /** Loaded by the first tool call, or by the warm-up once the first answer is out — never before it. */
  const LATER = [
    'flows/engine.js',
    'flows/summarizeRepo/run.js',
    'repo/repository.js',
    'repo/gitListing.js',
    'repo/facts/languageData.js',
    'repo/secrets/scanner.js',
  ];

  it('loads no provider, tokenizer, prompt library, YAML, schema compiler, flow engine or reader to answer', async () => {
    const result = await run(['serve', '--stdio', '--root', root, '--quiet'], {
      input: `${discover}\n`,
      until: /"id":1/,
    });
    expect(result.stdout).toContain('"supportedVersions"');
    const { packages, own } = result.beforeFirstAnswer;
    for (const name of HEAVY) expect(packages.has(name), name).toBe(false);
    expect(packages.has('@modelcontextprotocol/server')).toBe(true);
    // The flow engine, the repository reader and the provider adapters load at first need (or in the warm-up after
    // the first answer), the HTTP adapter, the Redis client and the metrics library never on stdio.
    expect(own).toContain('flows/summarizeRepo/tool.js');
    for (const file of [...LATER, 'models/providers/openaiChat.js', 'models/providers/anthropicMessages.js']) {
      expect(own, file).not.toContain(file);
    }
    for (const name of ['@hono/node-server', 'ioredis', 'prom-client'])
      expect(result.packages.has(name), name).toBe(false);
  });

  it('warms up what the first tool call needs once the first answer is out, and only then', async () => {
    const result = await run(['serve', '--stdio', '--root', root, '--quiet'], {
      input: `${discover}\n`,
      until: /"id":1/,
      // The warm-up's steps in order (app/warmUp.ts): the flow, then linguist's index, then the secret scanner.
      holdUntil: loadingOf('repo/secrets/scanner.js'),
    });
    for (const file of LATER) {
      expect(result.beforeFirstAnswer.own, file).not.toContain(file);
      expect(result.own, file).toContain(file);
    }
    for (const name of ['linguist-languages', '@secretlint/secretlint-rule-preset-recommend']) {
      expect(result.beforeFirstAnswer.packages.has(name), name).toBe(false);
      expect(result.packages.has(name), name).toBe(true);
    }
    // The encoder loads on the tokenizer's own thread, never in this one.
    expect(result.packages.has('gpt-tokenizer')).toBe(false);
  });
});

describe('summarize loads what the main job needs', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mmi-lazy-summarize-'));
    await writeFile(join(root, 'README.md'), '# demo\n\nA demo project.\n');
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'demo', description: 'A demo project' }));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('runs the tool directly with the built-in model: no MCP client, pipe, HTTP stack, Redis client or metrics', async () => {
    const result = await run(['summarize', root, '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Written by the built-in heuristic');
    expect(result.httpStack).toBe(false);
    // Loaded only by what needs them: the protocol path (--trace, host steps), explore's regular expressions, limits.
    for (const name of ['@modelcontextprotocol/client', 're2js', 'rate-limiter-flexible']) {
      expect(result.packages.has(name), name).toBe(false);
    }
    for (const name of ['@hono/node-server', 'ioredis', 'prom-client', ...HEAVY]) {
      expect(result.packages.has(name), name).toBe(false);
    }
    expect(result.own).toContain('app/localSummarize.js');
    expect(result.own).not.toContain('app/summarizeOverMcp.js');
    expect(result.own).not.toContain('app/inProcessPipe.js');
    expect(result.own).toContain('repo/tokenizerThread.js');
  });

  it('goes through the official client over an in-memory pipe when the exchange is traced', async () => {
    const result = await run(['summarize', root, '--quiet', '--trace']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Written by the built-in heuristic');
    // The client reaches the in-process server over a pipe to its stdio front: no fetch, Request or Headers.
    expect(result.httpStack).toBe(false);
    expect(result.packages.has('@modelcontextprotocol/client')).toBe(true);
    expect(result.own).toContain('app/summarizeOverMcp.js');
    expect(result.own).toContain('app/inProcessPipe.js');
    for (const name of ['@hono/node-server', 'ioredis', 'prom-client', ...HEAVY]) {
      expect(result.packages.has(name), name).toBe(false);
    }
  });
});
