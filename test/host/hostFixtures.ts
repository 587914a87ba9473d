/** What several host tests share: an approver that approves and remembers every round, and an audit log read back. */
import { PassThrough } from 'node:stream';

import { createAuditLog, type AuditLog } from '../../src/host/auditLog.js';
import type { ApprovalRound, Approver } from '../../src/host/types.js';

/** Approves every round and keeps a copy of each, as the approval dialog was shown it. */
export function recordingApprover(): Approver & { rounds: ApprovalRound[] } {
  const rounds: ApprovalRound[] = [];
  return {
    rounds,
    review: (round) => {
      rounds.push(structuredClone(round));
      return Promise.resolve({ kind: 'approve' });
    },
  };
}

/** An audit log writing to memory: its raw text, and its JSON lines parsed. */
export async function capturedAuditLog(): Promise<{
  audit: AuditLog;
  text(): string;
  lines(): Array<Record<string, unknown>>;
}> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const audit = await createAuditLog({ stream });
  return {
    audit,
    text: () => text,
    lines: () =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
