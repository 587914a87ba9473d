import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/rawChannel.js';

const RECORDER = fileURLToPath(new URL('../fixtures/loadRecorder.mjs', import.meta.url));
const COMMANDS = ['serve', 'summarize', 'plan', 'audit', 'call', 'discover', 'keygen'];
/** Never needed to print a version or a help text, nor to answer server/discover. */
const HEAVY = ['openai', '@anthropic-ai/sdk', 'gpt-tokenizer', '@clack/prompts', '@clack/core', 'yaml', 'ajv'];

interface Run {
  code: number | null;
  stdout: string;
  /** Packages (under node_modules) whose files the process loaded. */
  packages: Set<string>;
  /** Loaded files of this project's build (dist/…). */
  own: string[];
}

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

/** Runs the built CLI under the load recorder; `input` goes to stdin, which stays open until `until` matches stdout. */
function run(args: string[], input = '', until?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RECORDER, CLI, ...args], { stdio: 'pipe' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until?.test(stdout)) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.write(input);
    if (until === undefined) child.stdin.end();
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = stderr.split('\n').find((text) => text.startsWith('LOADED '));
      if (line === undefined) return reject(new Error(`no load record (exit ${code}): ${stderr}`));
      const loaded = unbundled(JSON.parse(line.slice('LOADED '.length)) as string[]);
      const own = loaded.filter((entry) => entry.includes('/dist/')).map((entry) => entry.replace(/^.*\/dist\//, ''));
      resolve({ code, stdout, packages: packagesOf(loaded), own });
    });
  });
}

describe('the CLI loads a command only when it runs', () => {
  it('loads no package at all for --version and --help', async () => {
    for (const args of [['--version'], ['--help']]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect([...result.packages], args.join(' ')).toEqual([]);
      expect(result.own.sort(), args.join(' ')).toEqual([
        'cli.js',
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

  it('loads no provider, tokenizer, prompt library, YAML, schema compiler, flow engine or reader to answer', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    const result = await run(['serve', '--stdio', '--root', root, '--quiet'], `${discover}\n`, /"id":1/);
    expect(result.stdout).toContain('"supportedVersions"');
    for (const name of HEAVY) expect(result.packages.has(name), name).toBe(false);
    expect(result.packages.has('@modelcontextprotocol/server')).toBe(true);
    // The flow engine, the repository reader and the provider adapters load at first need, the HTTP adapter never
    // on stdio.
    expect(result.own).toContain('flows/summarizeRepo/tool.js');
    const later = ['flows/engine.js', 'flows/summarizeRepo/run.js', 'repo/repository.js', 'repo/gitListing.js'];
    for (const file of [...later, 'models/providers/openaiChat.js', 'models/providers/anthropicMessages.js']) {
      expect(result.own, file).not.toContain(file);
    }
    expect(result.packages.has('@hono/node-server'), '@hono/node-server').toBe(false);
  });
});
