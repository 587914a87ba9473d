/** The stub server on stdio: `node --import tsx test/audit/stubStdio.ts [fault,fault…]`. */
import { createInterface } from 'node:readline';

import { createStub, type Fault } from './stubServer.js';

const faults = (process.argv[2] ?? '').split(',').filter((fault) => fault !== '') as Fault[];
const handle = createStub(faults);
if (faults.includes('stdout_noise')) process.stdout.write('stub server ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(line) as Record<string, unknown>;
  } catch {
    process.stdout.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })}\n`,
    );
    return;
  }
  const reply = handle(message);
  for (const request of reply.before ?? []) process.stdout.write(`${JSON.stringify(request)}\n`);
  if (reply.message !== undefined) process.stdout.write(`${JSON.stringify(reply.message)}\n`);
});
