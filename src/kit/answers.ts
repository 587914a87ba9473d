/**
 * From a sampling result to the `SampleAnswer` a tool gets: its text joined, the route it took, and — when the
 * question carried an `outputSchema` — its parsed data, or why it is unusable.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';

import { answerText } from '../flows/flow.js';
import type { SampleAnswer, SampleRequest, SampleRoute } from './modelTool.js';

/** How much of an unusable answer is shown back to a server-side model in the repair request. */
const MAX_REPAIR_ECHO = 4000;

/** The answer's text as JSON: the whole text, or its first fenced block. */
function parseJson(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  return JSON.parse((fenced?.[1] ?? text).trim()) as unknown;
}

export type Checked = { ok: true; answer: SampleAnswer } | { ok: false; reason: string };

/** The answer as a tool sees it; with a schema, its parsed data or why it does not meet it. */
export function checkAnswer(result: CreateMessageResult, route: SampleRoute, schema: z.ZodType | undefined): Checked {
  const text = answerText(result);
  const answer: SampleAnswer = {
    role: 'assistant',
    content: result.content,
    model: result.model,
    ...(result.stopReason !== undefined && { stopReason: result.stopReason }),
    text,
    route,
  };
  if (schema === undefined) return { ok: true, answer };
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return { ok: false, reason: 'the answer is not JSON' };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
    return { ok: false, reason: `the answer does not match the expected schema (${issues.join('; ')})` };
  }
  return { ok: true, answer: { ...answer, data: parsed.data } };
}

/** The request as sent on the wire: the tool's question without its local `outputSchema`. */
export function wireRequest(request: SampleRequest): CreateMessageRequestParams {
  const { outputSchema: _local, ...wire } = request;
  return wire;
}

/** The one repair request after an unusable answer of a server-side model. */
export function repairRequest(
  params: CreateMessageRequestParams,
  answer: CreateMessageResult,
  reason: string,
): CreateMessageRequestParams {
  const said = answerText(answer);
  const echo =
    said.trim() === '' ? '(empty answer)' : said.length > MAX_REPAIR_ECHO ? `${said.slice(0, MAX_REPAIR_ECHO)}…` : said;
  return {
    ...params,
    messages: [
      ...params.messages,
      { role: 'assistant', content: { type: 'text', text: echo } },
      {
        role: 'user',
        content: { type: 'text', text: `That answer cannot be used: ${reason}. Answer again with JSON only.` },
      },
    ],
  };
}
