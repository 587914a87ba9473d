/**
 * The CLI reference cannot drift: for every command, the flags its parser accepts (the table it hands
 * `parseArgs`), the flags its `--help` lists, and the flags docs/cli.md documents are the same set.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { PARSED_FLAG_TABLES } from '../../src/cli/args.js';
import { processIo } from '../../src/cli/io.js';
import * as usage from '../../src/cli/usage.js';

const COMMANDS = {
  summarize: {
    usage: usage.SUMMARIZE_USAGE,
    heading: '## `summarize [DIR]`',
    run: async () => (await import('../../src/cli/summarize.js')).runSummarize,
  },
  ask: {
    usage: usage.ASK_USAGE,
    heading: '## `ask DIR "QUESTION"`',
    run: async () => (await import('../../src/cli/ask.js')).runAsk,
  },
  review: {
    usage: usage.REVIEW_USAGE,
    heading: '## `review [DIR]`',
    run: async () => (await import('../../src/cli/review.js')).runReview,
  },
  serve: {
    usage: usage.SERVE_USAGE,
    heading: '## `serve`',
    run: async () => (await import('../../src/cli/serve.js')).runServe,
  },
  call: {
    usage: usage.CALL_USAGE,
    heading: '## `call TOOL` and `discover`',
    run: async () => (await import('../../src/cli/call.js')).runCall,
  },
  discover: {
    usage: usage.DISCOVER_USAGE,
    heading: '## `call TOOL` and `discover`',
    run: async () => (await import('../../src/cli/discover.js')).runDiscover,
  },
  plan: {
    usage: usage.PLAN_USAGE,
    heading: '## `plan FILE` and `audit`',
    run: async () => (await import('../../src/cli/plan.js')).runPlan,
  },
  migrate: {
    usage: usage.MIGRATE_USAGE,
    heading: '## `migrate DIR`',
    run: async () => (await import('../../src/cli/migrate.js')).runMigrate,
  },
  audit: {
    usage: usage.AUDIT_USAGE,
    heading: '## `plan FILE` and `audit`',
    run: async () => (await import('../../src/cli/audit.js')).runAuditCommand,
  },
} as const;

const FLAG = /--[a-z][a-z0-9-]*[a-z0-9]/g;

/** The flag table the command's parser uses: run it with a flag no table has, which it refuses after recording its table. */
async function parserFlags(name: keyof typeof COMMANDS): Promise<string[]> {
  const run = await COMMANDS[name].run();
  await expect(run(['--no-such-flag-in-any-table'], processIo())).rejects.toThrow(/no-such-flag/);
  const table = PARSED_FLAG_TABLES.get(name);
  if (table === undefined) throw new Error(`${name} recorded no flag table`);
  return table
    .filter((flag) => flag !== 'help')
    .map((flag) => `--${flag}`)
    .sort();
}

/** Flags on the help's option lines (two spaces or more, then the flag). */
function helpFlags(text: string): string[] {
  const flags = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^\s{2,}(--[a-z][a-z0-9-]*)/.exec(line);
    if (match?.[1] !== undefined && match[1] !== '--help') flags.add(match[1]);
  }
  return [...flags].sort();
}

/** Flags in the first column of the tables of the command's section of docs/cli.md. */
function docFlags(heading: string): string[] {
  const doc = readFileSync('docs/cli.md', 'utf8');
  const start = doc.indexOf(heading);
  if (start < 0) throw new Error(`docs/cli.md has no section ${heading}`);
  const next = doc.indexOf('\n## ', start + heading.length);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const flags = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|\s*([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const flag of first.match(FLAG) ?? []) flags.add(flag);
  }
  return [...flags].sort();
}

describe('the CLI reference', () => {
  for (const name of Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>) {
    it(`${name}: parser, --help and docs/cli.md name the same flags`, async () => {
      const parsed = await parserFlags(name);
      expect(parsed.length).toBeGreaterThan(0);
      expect(helpFlags(COMMANDS[name].usage), `${name} --help`).toEqual(parsed);
      const documented = docFlags(COMMANDS[name].heading);
      // docs/cli.md documents `call` and `discover` (and `plan` and `audit`) in one section each.
      for (const flag of parsed) expect(documented, `docs/cli.md ${name}`).toContain(flag);
    });
  }

  it('docs/cli.md documents no flag that no parser accepts', async () => {
    const accepted = new Set<string>();
    for (const name of Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>) {
      for (const flag of await parserFlags(name)) accepted.add(flag);
    }
    const headings = new Set(Object.values(COMMANDS).map((command) => command.heading));
    const documented = [...headings].flatMap((heading) => docFlags(heading));
    expect(documented.filter((flag) => !accepted.has(flag))).toEqual([]);
  });
});
