/** Rounds for the approval tests: built here, shaped like what the host runtime hands the approver. */
import type { ApprovalRound } from '../../../src/host/types.js';

type SamplingRequest = ApprovalRound['requests'][number];

export function sampling(key: string, maxTokens = 400, system = 'You pick files.'): SamplingRequest {
  return {
    key,
    method: 'sampling/createMessage',
    params: { systemPrompt: system, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens },
  };
}

export function round(requests: SamplingRequest[], overrides: Partial<ApprovalRound> = {}): ApprovalRound {
  return {
    server: { name: 'repo-helper', key: 'http://127.0.0.1:8080/mcp' },
    tool: 'summarize_repo',
    round: 1,
    requests,
    ...overrides,
  };
}

export const ROUND = round([sampling('pick_files')]);
