/**
 * Command dispatch. The only place (with its siblings) that writes to stdout.
 *
 * A command's module is imported only when that command runs (the table below), so `--version`, `--help` and
 * every command's `--help` load nothing but this file, usage.ts, version.ts and errors.ts — no SDK, no schema
 * library, no provider, tokenizer or prompt library. Heavy dependencies below a command load at first need.
 */
import { isModelInputError } from '../errors.js';
import { VERSION } from '../version.js';
import {
  ASK_USAGE,
  AUDIT_USAGE,
  CALL_USAGE,
  DISCOVER_USAGE,
  KEYGEN_USAGE,
  MAIN_USAGE,
  MIGRATE_USAGE,
  PLAN_USAGE,
  REVIEW_USAGE,
  SERVE_USAGE,
  SUMMARIZE_USAGE,
} from './usage.js';
import { processIo, writeLine, type CliIo } from './io.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

type Run = (argv: readonly string[], io: CliIo) => Promise<number>;

interface Command {
  usage: string;
  /** Imports the command's module (and with it, its dependencies). */
  load: () => Promise<Run>;
}

async function runKeygen(argv: readonly string[], io: CliIo): Promise<number> {
  const { generateStateKey } = await import('../state/index.js');
  writeLine(io.stdout, generateStateKey(argv[0] ?? `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`));
  return EXIT_OK;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { usage: SERVE_USAGE, load: async () => (await import('./serve.js')).runServe },
  summarize: {
    usage: SUMMARIZE_USAGE,
    load: async () => (await import('./summarize.js')).runSummarize,
  },
  ask: { usage: ASK_USAGE, load: async () => (await import('./ask.js')).runAsk },
  review: { usage: REVIEW_USAGE, load: async () => (await import('./review.js')).runReview },
  plan: { usage: PLAN_USAGE, load: async () => (await import('./plan.js')).runPlan },
  migrate: { usage: MIGRATE_USAGE, load: async () => (await import('./migrate.js')).runMigrate },
  audit: { usage: AUDIT_USAGE, load: async () => (await import('./audit.js')).runAuditCommand },
  call: { usage: CALL_USAGE, load: async () => (await import('./call.js')).runCall },
  discover: { usage: DISCOVER_USAGE, load: async () => (await import('./discover.js')).runDiscover },
  keygen: { usage: KEYGEN_USAGE, load: async () => runKeygen },
};

/**
 * Whether a command's arguments ask for its help: `--help` or `-h` before any `--`. The commands parse in strict
 * mode, where an option never takes `-h` or `--help` as its value, so this is the answer their parsers would give.
 */
function asksForHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  try {
    switch (name) {
      case undefined:
        writeLine(io.stderr, MAIN_USAGE);
        return EXIT_USAGE;
      case '-h':
      case '--help':
      case 'help':
        writeLine(io.stdout, MAIN_USAGE);
        return EXIT_OK;
      case '-v':
      case '--version':
        writeLine(io.stdout, VERSION);
        return EXIT_OK;
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (command === undefined) {
      writeLine(io.stderr, `mcp-model-input: unknown command '${name}'\n\n${MAIN_USAGE}`);
      return EXIT_USAGE;
    }
    if (asksForHelp(rest)) {
      writeLine(io.stdout, command.usage);
      return EXIT_OK;
    }
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    if (isModelInputError(error)) {
      writeLine(io.stderr, `mcp-model-input: ${error.message}`);
      return error.code === 'usage' || error.code === 'config_invalid' || error.code === 'state_keys_invalid'
        ? EXIT_USAGE
        : EXIT_FAILURE;
    }
    writeLine(io.stderr, `mcp-model-input: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}
