/**
 * The CLI reference cannot drift. docs/cli.md is the rendering of the flag table `--help` prints (src/cli/usage.ts);
 * each command's parser accepts exactly the flags of its help, takes a value where the help names one, repeats
 * where the help says so, and checks the ranges the help states.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PARSED_FLAG_TABLES } from '../../src/cli/args.js';
import { flagName, HELP_FLAG, rangeText, type CommandHelp, type FlagHelp } from '../../src/cli/helpText.js';
import { processIo } from '../../src/cli/io.js';
import { renderCliReference, synopsis } from '../../src/cli/reference.js';
import * as usage from '../../src/cli/usage.js';

type Run = (argv: readonly string[], io: ReturnType<typeof processIo>) => Promise<number>;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mmi-reference-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Each command with a parser: its help text, how to load it, and arguments that get it past its positional checks
 * (no server is started, nothing is connected: every flag value under test is refused first).
 */
const PARSERS: Record<string, { usage: string; run: () => Promise<Run>; base: () => string[] }> = {
  summarize: {
    usage: usage.SUMMARIZE_USAGE,
    run: async () => (await import('../../src/cli/summarize.js')).runSummarize,
    base: () => [dir],
  },
  ask: {
    usage: usage.ASK_USAGE,
    run: async () => (await import('../../src/cli/ask.js')).runAsk,
    base: () => [dir, 'q'],
  },
  review: {
    usage: usage.REVIEW_USAGE,
    run: async () => (await import('../../src/cli/review.js')).runReview,
    base: () => [dir],
  },
  serve: {
    usage: usage.SERVE_USAGE,
    run: async () => (await import('../../src/cli/serve.js')).runServe,
    base: () => ['--http', '127.0.0.1:0', '--root', dir],
  },
  call: {
    usage: usage.CALL_USAGE,
    run: async () => (await import('../../src/cli/call.js')).runCall,
    base: () => ['tool', '--url', 'http://127.0.0.1:9/mcp', '--approve', 'deny', '--elicit', 'auto-decline'],
  },
  discover: {
    usage: usage.DISCOVER_USAGE,
    run: async () => (await import('../../src/cli/discover.js')).runDiscover,
    base: () => ['--url', 'http://127.0.0.1:9/mcp'],
  },
  plan: { usage: usage.PLAN_USAGE, run: async () => (await import('../../src/cli/plan.js')).runPlan, base: () => [] },
  migrate: {
    usage: usage.MIGRATE_USAGE,
    run: async () => (await import('../../src/cli/migrate.js')).runMigrate,
    base: () => [dir],
  },
  audit: {
    usage: usage.AUDIT_USAGE,
    run: async () => (await import('../../src/cli/audit.js')).runAuditCommand,
    base: () => ['--url', 'http://127.0.0.1:9/mcp'],
  },
};

function helpOf(name: string): CommandHelp {
  const command = usage.COMMAND_HELP.find((entry) => entry.name === name);
  if (command === undefined) throw new Error(`no help for ${name}`);
  return command;
}

function flagsOf(command: CommandHelp): FlagHelp[] {
  return command.groups.flatMap((group) => group.flags).filter((flag) => flag !== HELP_FLAG);
}

/** The option table the command's parser uses: run it with a flag no table has, which it refuses after recording. */
async function parserTable(name: string): Promise<NonNullable<ReturnType<typeof PARSED_FLAG_TABLES.get>>> {
  const run = await PARSERS[name]!.run();
  await expect(run(['--no-such-flag-in-any-table'], processIo())).rejects.toThrow(/no-such-flag/);
  const table = PARSED_FLAG_TABLES.get(name);
  if (table === undefined) throw new Error(`${name} recorded no flag table`);
  return table;
}

/** Flags on the printed help's option lines (two spaces or more, then the flag). */
function printedFlags(text: string): string[] {
  const flags = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^\s{2,}(--[a-z][a-z0-9-]*)/.exec(line);
    if (match?.[1] !== undefined && match[1] !== '--help') flags.add(match[1]);
  }
  return [...flags].sort();
}

describe('docs/cli.md', () => {
  it('is the rendering of the flag table --help prints', () => {
    const committed = readFileSync('docs/cli.md', 'utf8');
    expect(
      committed === renderCliReference(usage.COMMAND_HELP),
      'docs/cli.md is not the rendering of src/cli/usage.ts: run `npm run docs:cli` and commit docs/cli.md',
    ).toBe(true);
  });

  it('stays within its 18 KB budget', () => {
    expect(Buffer.byteLength(renderCliReference(usage.COMMAND_HELP))).toBeLessThanOrEqual(18 * 1024);
  });

  it.each(usage.COMMAND_HELP.map((command) => [command.name, command] as const))(
    "%s: the synopsis names every flag, with its value and '...' where it repeats",
    (_name, command) => {
      const text = synopsis(command).join(' ');
      for (const flag of flagsOf(command)) {
        const written = `${flag.flag}${flag.repeatable === true ? ']...' : ''}`;
        expect(text, flag.flag).toContain(written);
      }
    },
  );

  it('renders each command once, with its table of flags, ranges and defaults', () => {
    const page = renderCliReference(usage.COMMAND_HELP);
    for (const command of usage.COMMAND_HELP) expect(page).toContain(`\n## \`${command.name}\`\n`);
    expect(page).toContain('|`--max-rounds N`|`input_required` rounds per tool call (2-100)|6|');
    expect(page).toContain('|`--store URL`|');
    // The tokens file's format is stated (the 16-character rule is the loader's: src/server/principals.ts).
    expect(page).toMatch(/Tokens file: a JSON object of bearer token \(16 characters or more\) to principal/);
  });
});

describe('each parser and its help', () => {
  it.each(Object.keys(PARSERS))('%s: the same flags, values and repeats', async (name) => {
    const table = await parserTable(name);
    const command = helpOf(name);
    const parsed = Object.keys(table)
      .filter((flag) => flag !== 'help')
      .map((flag) => `--${flag}`)
      .sort();
    expect(parsed.length).toBeGreaterThan(0);
    expect(flagsOf(command).map(flagName).sort(), `${name}: src/cli/usage.ts`).toEqual(parsed);
    expect(printedFlags(PARSERS[name]!.usage), `${name} --help`).toEqual(parsed);
    for (const flag of flagsOf(command)) {
      const option = table[flagName(flag).slice(2)];
      expect(option?.type === 'string', `${flag.flag}: takes a value`).toBe(flag.flag.includes(' '));
      expect(option?.multiple === true, `${flag.flag}: repeatable`).toBe(flag.repeatable === true);
    }
    expect(table['help']).toEqual({ type: 'boolean', short: 'h' });
  });

  const ranged = Object.keys(PARSERS).flatMap((name) =>
    flagsOf(helpOf(name))
      .filter((flag) => flag.range !== undefined)
      .map((flag) => [name, flag.flag, flag] as const),
  );

  it.each(ranged)('%s %s: the parser checks the range the help states', async (name, _flag, flag) => {
    const run = await PARSERS[name]!.run();
    const [min, max] = flag.range as readonly [number, number?];
    const stated = new RegExp(`${flagName(flag)} must be an integer from ${min} to ${max ?? '\\d+'},`);
    const outside = [...(min > 0 ? [min - 1] : []), ...(max === undefined ? [] : [max + 1])];
    expect(outside.length, rangeText(flag.range)).toBeGreaterThan(0);
    for (const value of outside) {
      await expect(run([...PARSERS[name]!.base(), flagName(flag), String(value)], processIo())).rejects.toThrow(stated);
    }
  });
});
