/**
 * Every fenced code block in README.md and docs/*.md is checked by what it claims to be (the rules are in
 * docs/testing.md, "Tests of the docs"):
 * - ```ts: a complete module that compiles against the package (one TypeScript program for all of them);
 * - ```json parses;
 * - ```sh: commands a user types, each checked: this CLI's command lines by its own argument parser (and the finite
 *   ones that need no network or key are run), `npm` lines by the scripts package.json has, other commands by the
 *   repository files they name;
 * - ```mermaid: test/docs/mermaid.test.ts; ```text: anything else, not checked.
 * And README.md's commands run as written: the main job, and its library host snippet.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PARSED_FLAG_TABLES, parseCommandArgs, type OptionTable } from '../../src/cli/args.js';
import { runCli } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { ROOT, fencedBlocks, markdownFiles, readDoc, type FencedBlock } from './markdown.js';
import { parseShellBlock, type ShellCommand } from './shellLines.js';

const run = promisify(execFile);

/** The info strings a block may carry (docs-plan: anything else is ```text). */
const LANGS = new Set(['ts', 'sh', 'json', 'mermaid', 'text']);
/** The root placeholder of the docs: this checkout, wherever a command needs a real directory. */
const PLACEHOLDER = '/path/to/repo';
/** Commands that end by themselves and need no network or key when their model is the built-in one: these are run. */
const RUNNABLE = new Set(['summarize', 'ask', 'plan', 'keygen']);
/** npm's own commands a doc may show (anything else must be a script of package.json). */
const NPM_COMMANDS = new Set(['install', 'i', 'ci', 'pack', 'publish', 'exec', 'view', 'link', 'uninstall', 'init']);
/** A word that names a file of this repository. */
const REPO_PATH = /^(?:\.\/)?(?:src|test|docs|examples|scripts|bench|schemas|conformance|eval|dist)\/[^\s*?$]*$/;

const blocks: FencedBlock[] = markdownFiles().flatMap((file) => fencedBlocks(file, readDoc(file)));
const where = (block: FencedBlock, line = 0) => `${block.file}:${block.line + line}`;

describe('code blocks in README.md and docs/', () => {
  it('are marked ts, sh, json, mermaid or text', () => {
    const unmarked = blocks
      .filter((block) => !LANGS.has(block.lang))
      .map((block) => `${where(block)} \`\`\`${block.lang} (use text)`);
    expect(unmarked).toEqual([]);
  });

  it('json blocks parse', () => {
    const broken = blocks
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${where(block)}: ${(error as Error).message}`];
        }
      });
    expect(broken).toEqual([]);
  });

  it('ts blocks compile against the package', { timeout: 120_000 }, () => {
    expect(compileErrors(blocks.filter((block) => block.lang === 'ts'))).toEqual([]);
  });

  it('sh blocks hold commands a user types, each parsed, run or found', { timeout: 180_000 }, async () => {
    const problems: string[] = [];
    for (const block of blocks.filter((candidate) => candidate.lang === 'sh')) {
      const parsed = parseShellBlock(block.code);
      problems.push(...parsed.problems.map((problem) => `${block.file}:${block.line} ${problem}`));
      const env: Record<string, string> = {};
      for (const command of parsed.commands) {
        const found = await checkCommand(command, env);
        problems.push(...found.map((problem) => `${where(block, command.line)} \`${command.text}\`: ${problem}`));
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the sh checks', () => {
  async function problems(code: string): Promise<string[]> {
    const parsed = parseShellBlock(code);
    const env: Record<string, string> = {};
    const found = [...parsed.problems];
    for (const command of parsed.commands) found.push(...(await checkCommand(command, env)));
    return found;
  }

  it('refuse what a user could not type as written', { timeout: 60_000 }, async () => {
    const cases: Array<[string, RegExp]> = [
      ['mcp-model-input summarize . --no-such-flag', /Unknown option '--no-such-flag'/],
      ['mcp-model-input serve --stdio --model', /--model.*argument missing/],
      ['mcp-model-input summarize . --mode nope', /^exit 2: .*--mode/],
      ['mcp-model-input call summarize_repo --stdio "mcp-model-input serve --nope"', /^in --stdio: .*'--nope'/],
      ['mcp-model-input frobnicate', /unknown command 'frobnicate'/],
      ['npm run no-such-script', /no script 'no-such-script'/],
      ['npx tsx examples/no-such-example.ts', /no file examples\/no-such-example\.ts/],
      ['tsx examples/host.ts', /npx tsx/],
      ['$ npm test', /a prompt/],
      ['for f in a b; do echo $f; done', /shell control \('for'\)/],
    ];
    for (const [bad, why] of cases) {
      const found = await problems(bad);
      expect(found.join('\n'), bad).toMatch(why);
    }
  });

  it('accept the forms the docs use', { timeout: 60_000 }, async () => {
    for (const good of [
      'mcp-model-input --help',
      'node /path/to/mcp-model-input/dist/cli.js serve --stdio --root /path/to/repo --model host,builtin',
      'npx -y mcp-model-input plan --schema > workflow.json',
      'export OPENAI_API_KEY=sk-test\nmcp-model-input serve --http 127.0.0.1:3000 --model openai:gpt-test # a comment',
      'npm install && npm run summarize -- --help',
      'npx tsx examples/host.ts /path/to/repo',
      'curl -s http://127.0.0.1:3000/healthz',
    ]) {
      expect(await problems(good), good).toEqual([]);
    }
  });
});

describe('README.md', () => {
  const readme = fencedBlocks('README.md', readDoc('README.md'));
  let repo: FixtureRepo;
  let dir: string;
  beforeAll(async () => {
    repo = await makeSampleRepo();
    dir = await mkdtemp(join(tmpdir(), 'mmi-readme-'));
  });
  afterAll(async () => {
    await repo?.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('starts with the two commands: the main job and the test suite', () => {
    const first = readme.find((block) => block.lang === 'sh');
    const commands = parseShellBlock(first?.code ?? '').commands.map((command) => command.words.join(' '));
    expect(commands).toContain('npm run summarize -- .');
    expect(commands).toContain('npm test');
  });

  it('runs its main job as written: this repository summarized on the built-in model', async () => {
    // `npm run summarize` builds first only when the build is older than the sources (this run built it).
    const { stdout } = await run('npm', ['run', '--silent', 'summarize', '--', '.'], { cwd: ROOT, timeout: 120_000 });
    expect(stdout).toContain('Overview of **mcp-model-input**');
    expect(stdout).toContain('Written by the built-in heuristic');
  });

  it('runs its library host snippet: the host model answers the server, and the program exits', async () => {
    const snippet = readme.find((block) => block.lang === 'ts' && block.code.includes("'mcp-model-input/host'"));
    expect(snippet, 'README.md has a host snippet').toBeDefined();
    // As a user has it: the package's built entry, the installed binary on the PATH, a repository at the placeholder.
    const code = snippet!.code
      .replaceAll("'mcp-model-input/host'", `'${pathToFileURL(join(ROOT, 'dist/entries/host.js')).href}'`)
      .replaceAll(PLACEHOLDER, repo.root);
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'mcp-model-input'), `#!/bin/sh\nexec "${process.execPath}" "${ROOT}/dist/cli.js" "$@"\n`);
    await chmod(join(bin, 'mcp-model-input'), 0o755);
    await writeFile(join(dir, 'host.mts'), code);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'host.mts')], {
      cwd: ROOT,
      timeout: 90_000,
      env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` },
    });
    expect(stdout).toContain('README.md');
    // Rounds of model input happened: the server (`--model host`) asked the host's model, not its own.
    expect(stdout).toMatch(/\(([1-9]\d*) rounds? of model input, answered by the host\)/);
  });
});

/** The ts blocks as modules beside examples/ (so `./explainFile.js` resolves), the package's entries mapped to src/. */
function compileErrors(tsBlocks: FencedBlock[]): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const pkg = JSON.parse(ts.sys.readFile(join(ROOT, 'package.json'))!) as {
    name: string;
    exports: Record<string, { types: string }>;
  };
  // 'mcp-model-input/host' -> src/entries/host.ts, from the `types` path each export names under dist/.
  const paths = Object.fromEntries(
    Object.entries(pkg.exports).map(([subpath, target]) => [
      `${pkg.name}${subpath.slice(1)}`,
      [join(ROOT, target.types)],
    ]),
  );
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    incremental: false,
    rootDir: ROOT,
    paths,
  };
  const files = new Map(
    tsBlocks.map((block) => [
      join(ROOT, 'examples', `.doc-${block.file.replace(/[/.]/g, '-')}-L${block.line}.ts`),
      block,
    ]),
  );
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile: read } = host;
  host.fileExists = (path) => files.has(resolve(path)) || fileExists.call(host, path);
  host.readFile = (path) => files.get(resolve(path))?.code ?? read.call(host, path);
  host.getSourceFile = (path, language, ...rest) => {
    const block = files.get(resolve(path));
    return block === undefined
      ? getSourceFile.call(host, path, language, ...rest)
      : ts.createSourceFile(path, block.code, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  return [...files].flatMap(([path, block]) => {
    const source = program.getSourceFile(path)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
      const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1;
      return `${where(block, line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    });
  });
}

/** What is wrong with one command of a ```sh block (nothing: an empty list). `env` gathers the block's exports. */
async function checkCommand(command: ShellCommand, env: Record<string, string>): Promise<string[]> {
  const words = command.words.map((word) => word.replaceAll(PLACEHOLDER, ROOT));
  Object.assign(env, command.env);
  const [program, ...args] = words;
  if (program === undefined) return [];
  if (program === 'export') {
    for (const assignment of args) {
      const [name, ...value] = assignment.split('=');
      env[name!] = value.join('=');
    }
    return [];
  }
  const cli = cliArguments(words);
  if (cli !== undefined) return checkCli(cli, { ...env, ...command.env }, true);
  if (program === 'npm') return checkNpm(args);
  if (program === 'tsx') return ['run examples with `npx tsx …`: a fresh clone has no `tsx` on the PATH'];
  return missingFiles(words);
}

/** The CLI's arguments when the words run this CLI (`mcp-model-input`, `npx [-y] mcp-model-input`, `node …/dist/cli.js`). */
function cliArguments(words: string[]): string[] | undefined {
  if (words[0] === 'mcp-model-input') return words.slice(1);
  if (words[0] === 'npx') {
    const at = words.findIndex((word, index) => index > 0 && !word.startsWith('-'));
    if (words[at] === 'mcp-model-input') return words.slice(at + 1);
  }
  if (words[0] === 'node' && /(^|\/)dist\/cli\.js$/.test(words[1] ?? '')) return words.slice(2);
  return undefined;
}

const tables = new Map<string, OptionTable | undefined>();

/** The command's option table, as its parser records it when refusing a flag no table has; null: no such command. */
async function optionTable(name: string): Promise<OptionTable | undefined | null> {
  if (!tables.has(name)) {
    const refused = await runCli([name, '--no-such-flag-in-any-table']);
    if (/unknown command/.test(refused.stderr)) return null;
    tables.set(name, PARSED_FLAG_TABLES.get(name));
  }
  return tables.get(name);
}

/**
 * A command line of this CLI: parsed by the command's own parser (unknown flags, missing values); a nested
 * `--stdio "COMMAND"` of this CLI likewise; then run in-process when it is finite and offline: `--help`,
 * `--version`, and summarize/ask/plan/keygen on the built-in model with every path it names present.
 */
async function checkCli(argv: string[], env: Record<string, string>, mayRun: boolean): Promise<string[]> {
  const [name, ...rest] = argv;
  if (name === undefined) return ['no command'];
  const help = ['--help', '-h', 'help', '--version', '-v'].includes(name) || rest.includes('--help');
  if (help) return runs(argv, env);
  const table = await optionTable(name);
  if (table === null) return [`unknown command '${name}'`];
  let values: Record<string, unknown> = {};
  let positionals: string[] = rest;
  if (table !== undefined) {
    try {
      const parsed = parseCommandArgs(name, rest, table);
      values = parsed.values as Record<string, unknown>;
      positionals = parsed.positionals;
    } catch (error) {
      return [(error as Error).message];
    }
  }
  const nested =
    typeof values['stdio'] === 'string' ? cliArguments((values['stdio'] as string).split(/\s+/)) : undefined;
  if (nested !== undefined) {
    const problems = await checkCli(nested, env, false);
    if (problems.length > 0) return problems.map((problem) => `in --stdio: ${problem}`);
  }
  const models = [values['model'], values['host-model']].filter((model) => model !== undefined);
  const paths = [
    ...(name === 'plan' && values['schema'] === true ? [] : positionals.slice(0, 1)),
    ...['from-audit', 'from-source'].map((flag) => values[flag]).filter((value) => typeof value === 'string'),
  ] as string[];
  const offline = models.every((model) => model === 'builtin');
  if (mayRun && RUNNABLE.has(name) && offline && paths.every((path) => existsSync(resolve(ROOT, path)))) {
    return runs(argv, env);
  }
  return [];
}

async function runs(argv: string[], env: Record<string, string>): Promise<string[]> {
  const result = await runCli(argv, env);
  return result.code === 0 ? [] : [`exit ${result.code}: ${result.stderr.trim().split('\n')[0]}`];
}

let scripts: Record<string, string> | undefined;

/** `npm run S [-- ARGS]`, `npm test`: S is a script of package.json (`npm run summarize -- ARGS`: ARGS parse). */
async function checkNpm(args: string[]): Promise<string[]> {
  scripts ??= (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const [sub, script, ...rest] = args;
  if (sub === 'run' || sub === 'run-script') {
    if (script === undefined || !Object.hasOwn(scripts, script)) return [`no script '${script}' in package.json`];
    const passed = rest[0] === '--' ? rest.slice(1) : [];
    return script === 'summarize' ? checkCli(['summarize', ...passed], {}, false) : [];
  }
  if (sub === 'test' || sub === 't' || sub === 'start') {
    return Object.hasOwn(scripts, sub === 't' ? 'test' : sub) ? [] : [`no script '${sub}' in package.json`];
  }
  return sub !== undefined && NPM_COMMANDS.has(sub) ? [] : [`'npm ${sub}' is neither an npm command nor a script`];
}

/** Any other command: the repository files it names exist (`npx tsx examples/…`, `-c scripts/…`, …). */
function missingFiles(words: string[]): string[] {
  return words
    .map((word) => word.replace(/^--?[\w-]+=/, ''))
    .filter((word) => REPO_PATH.test(word) || (word.startsWith(`${ROOT}/`) && !word.includes('$')))
    .filter(
      (word) =>
        !existsSync(resolve(ROOT, word)) || (word.endsWith('/') && !statSync(resolve(ROOT, word)).isDirectory()),
    )
    .map((word) => `no file ${word.replace(ROOT, PLACEHOLDER)}`);
}
