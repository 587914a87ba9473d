/** Command dispatch. The only place (with its siblings) that writes to stdout. */
import { isModelInputError } from '../errors.js';
import { generateStateKey } from '../state/index.js';
import { VERSION } from '../version.js';
import { runAuditCommand } from './audit.js';
import { runCall } from './call.js';
import { runDiscover } from './discover.js';
import { runPlan } from './plan.js';
import { runServe } from './serve.js';
import { runSummarize } from './summarize.js';
import { KEYGEN_USAGE, MAIN_USAGE } from './usage.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        console.error(MAIN_USAGE);
        return EXIT_USAGE;
      case '-h':
      case '--help':
      case 'help':
        console.log(MAIN_USAGE);
        return EXIT_OK;
      case '-v':
      case '--version':
        console.log(VERSION);
        return EXIT_OK;
      case 'serve':
        return await runServe(rest);
      case 'summarize':
        return await runSummarize(rest);
      case 'plan':
        return await runPlan(rest);
      case 'audit':
        return await runAuditCommand(rest);
      case 'call':
        return await runCall(rest);
      case 'discover':
        return await runDiscover(rest);
      case 'keygen':
        if (rest.includes('--help') || rest.includes('-h')) {
          console.log(KEYGEN_USAGE);
          return EXIT_OK;
        }
        console.log(generateStateKey(rest[0] ?? `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`));
        return EXIT_OK;
      default:
        console.error(`mcp-model-input: unknown command '${command}'\n\n${MAIN_USAGE}`);
        return EXIT_USAGE;
    }
  } catch (error) {
    if (isModelInputError(error)) {
      console.error(`mcp-model-input: ${error.message}`);
      return error.code === 'usage' || error.code === 'config_invalid' || error.code === 'state_keys_invalid'
        ? EXIT_USAGE
        : EXIT_FAILURE;
    }
    console.error(`mcp-model-input: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  }
}
