/**
 * Writes docs/cli.md from the flag table `--help` prints (src/cli/usage.ts): `npm run docs:cli`.
 * test/cli/reference.test.ts fails when the committed page differs from this rendering.
 */
import { writeFileSync } from 'node:fs';

import { renderCliReference } from '../src/cli/reference.js';
import { COMMAND_HELP } from '../src/cli/usage.js';

const page = renderCliReference(COMMAND_HELP);
writeFileSync(new URL('../docs/cli.md', import.meta.url), page);
process.stdout.write(`docs/cli.md: ${Buffer.byteLength(page)} bytes\n`);
