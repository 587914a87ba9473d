/**
 * A host in a few lines: start the package's server on stdio with no model of its own (`--model host`), call
 * `summarize_repo`, and answer the model input it asks for through the host runtime's policies — here with the
 * built-in model and automatic approval, so it runs with no keys and no terminal. docs/host.md shows this file with
 * the package's import (test/examples/hostDoc.test.ts keeps the two the same).
 *
 *   npm run build && npx tsx examples/host.ts /path/to/repo
 */
import { fileURLToPath } from 'node:url';

import {
  createApprover,
  createAuditLog,
  createHost,
  parseApprovalMode,
  parseHostModelSpec,
} from '../src/entries/host.js';

// The package's command line sits next to its main module.
const cli = fileURLToPath(new URL('cli.js', import.meta.resolve('mcp-model-input')));
const root = process.argv[2] ?? process.cwd();

const audit = await createAuditLog({ stream: process.stderr }); // one JSON line per decision, no prompt text
const host = createHost({
  models: await parseHostModelSpec('builtin'), // the host's model: a heuristic, no keys, no network
  approver: await createApprover(parseApprovalMode('auto')), // approve every round: for your own server only
  audit,
  maxRounds: 4,
});
const connection = await host.connect({
  kind: 'stdio',
  command: process.execPath,
  args: [cli, 'serve', '--stdio', '--model', 'host', '--root', root, '--quiet'],
});
try {
  const { result, rounds, usage } = await connection.callTool('summarize_repo', { maxFiles: 3 });
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  process.stdout.write(`${text}\n(${rounds} rounds answered by the host's model, ${usage.tokens} tokens)\n`);
} finally {
  await connection.close();
  await audit.close();
}
