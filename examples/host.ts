/**
 * A host in a few lines: start a server on stdio, call `summarize_repo`, and answer the model input
 * it asks for through the host runtime's policies — here with the built-in model and automatic
 * approval, so it runs with no keys and no terminal.
 *
 *   tsx examples/host.ts DIR
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createApprover, createHost, parseApprovalMode, parseHostModelSpec } from '../src/entries/host.js';

const root = process.argv[2] ?? process.cwd();
const host = createHost({
  models: await parseHostModelSpec('builtin'),
  approver: await createApprover(parseApprovalMode('auto')),
});
const connection = await host.connect({
  kind: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), 'server.ts'), root],
});
try {
  const { result, rounds } = await connection.callTool('summarize_repo', { maxFiles: 3 });
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  process.stdout.write(`${text}\n(${rounds} rounds of model input, answered by the host)\n`);
} finally {
  await connection.close();
}
