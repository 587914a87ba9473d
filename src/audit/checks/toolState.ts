/**
 * The state checks, replaying the first input_required round: a tampered state, the state under
 * changed arguments and on another tool, a retry without the answer, and a malformed answer.
 */
import { changeArguments } from '../changeArguments.js';
import { describeExchange, errorOf, resultOf, type AuditContext } from '../context.js';
import type { Exchange } from '../channel.js';
import { tamperState } from '../stateToken.js';
import type { FirstRound, ToolUnderAudit } from './toolFlow.js';

const STATE_RULES = ['mrtr.state_tampered', 'mrtr.state_arguments_bound', 'mrtr.state_tool_bound'] as const;

const MALFORMED: Record<string, unknown> = {
  'sampling/createMessage': { role: 'assistant' },
  'elicitation/create': { action: 'perhaps' },
  'roots/list': { roots: 'none' },
};

function expectInvalidParams(ctx: AuditContext, rule: string, exchange: Exchange, what: string): void {
  const error = errorOf(exchange);
  if (error?.code === -32602) ctx.record(rule, 'pass', `${what}: -32602`);
  else if (resultOf(exchange) !== undefined)
    ctx.record(rule, 'fail', `${what} was accepted: ${describeExchange(exchange)}`);
  else ctx.record(rule, 'fail', `${what}: ${describeExchange(exchange)}, expected -32602`);
}

function retry(
  ctx: AuditContext,
  first: FirstRound,
  name: string,
  args: Record<string, unknown>,
  extra: { state?: string; answers?: Record<string, unknown> },
): Promise<Exchange> {
  return ctx.call(
    'tools/call',
    {
      name,
      arguments: args,
      ...(extra.answers !== undefined && { inputResponses: extra.answers }),
      ...(extra.state !== undefined && { requestState: extra.state }),
    },
    first.capabilities,
  );
}

/**
 * The state replayed under changed arguments. The changed arguments are first sent on their own: only
 * when the tool accepts them does a -32602 on the replay show that the state is bound to the arguments.
 */
async function checkArgumentsBound(
  ctx: AuditContext,
  tool: ToolUnderAudit,
  first: FirstRound,
  state: string,
): Promise<void> {
  const rule = 'mrtr.state_arguments_bound';
  const descriptor = ctx.listedTools.find((entry) => entry['name'] === tool.name);
  const changed = changeArguments(tool.arguments, descriptor?.['inputSchema']);
  if (changed === undefined) {
    ctx.record(rule, 'not_applicable', 'no argument could be changed safely');
    return;
  }
  const shown = JSON.stringify(changed);
  const baseline = await retry(ctx, first, tool.name, changed, {});
  if (resultOf(baseline) === undefined) {
    ctx.record(
      rule,
      'not_applicable',
      `${tool.name} rejects the changed arguments ${shown} on their own (${describeExchange(baseline)}), ` +
        'so a refusal would prove nothing',
    );
    return;
  }
  const replay = await retry(ctx, first, tool.name, changed, { state, answers: first.answers });
  expectInvalidParams(ctx, rule, replay, `the state under ${shown}`);
}

async function checkStateBinding(
  ctx: AuditContext,
  tool: ToolUnderAudit,
  first: FirstRound,
  state: string,
): Promise<void> {
  const tampered = await retry(ctx, first, tool.name, tool.arguments, {
    state: tamperState(state),
    answers: first.answers,
  });
  expectInvalidParams(ctx, 'mrtr.state_tampered', tampered, 'a tampered requestState');

  await checkArgumentsBound(ctx, tool, first, state);

  const other = ctx.observed.tools.find((name) => name !== tool.name);
  if (other === undefined) {
    ctx.record('mrtr.state_tool_bound', 'not_applicable', 'only one tool is listed');
    return;
  }
  const baseline = await retry(ctx, first, other, {}, {});
  if (errorOf(baseline)?.code === -32602) {
    ctx.record(
      'mrtr.state_tool_bound',
      'not_applicable',
      `${other} rejects {} arguments, so a refusal would prove nothing`,
    );
    return;
  }
  const crossed = await retry(ctx, first, other, {}, { state, answers: first.answers });
  expectInvalidParams(ctx, 'mrtr.state_tool_bound', crossed, `${tool.name}'s state on ${other}`);
}

/** The requestState of a new first call of the tool, if it answers input_required with one. */
async function freshState(ctx: AuditContext, first: FirstRound, tool: ToolUnderAudit): Promise<string | undefined> {
  const state = resultOf(await retry(ctx, first, tool.name, tool.arguments, {}))?.['requestState'];
  return typeof state === 'string' ? state : undefined;
}

export async function checkToolState(
  ctx: AuditContext,
  tool: ToolUnderAudit,
  first: FirstRound | undefined,
): Promise<void> {
  if (first === undefined) {
    for (const rule of [...STATE_RULES, 'mrtr.missing_response', 'mrtr.malformed_response']) {
      ctx.record(rule, 'not_applicable', 'the tool never answered input_required');
    }
    return;
  }
  if (first.state === undefined) {
    for (const rule of STATE_RULES) ctx.record(rule, 'not_applicable', 'no requestState was issued');
  } else {
    await checkStateBinding(ctx, tool, first, first.state);
  }

  // The first round's state may be single use (and spent by the flow already): the checks below
  // that need an acceptable state start the call again for a fresh one.
  const fresh = first.state === undefined ? undefined : await freshState(ctx, first, tool);
  const missing = await retry(ctx, first, tool.name, tool.arguments, {
    ...(first.state !== undefined && { state: fresh ?? first.state }),
  });
  const again = resultOf(missing);
  if (again?.['resultType'] === 'input_required')
    ctx.record('mrtr.missing_response', 'pass', 'asked again with input_required');
  else ctx.record('mrtr.missing_response', 'fail', `a retry without inputResponses got ${describeExchange(missing)}`);

  const [key, request] = Object.entries(first.requests)[0] ?? [];
  const malformed = request === undefined ? undefined : MALFORMED[request.method];
  if (key === undefined || malformed === undefined) {
    ctx.record('mrtr.malformed_response', 'not_applicable', 'no embedded request to answer badly');
    return;
  }
  const unspent = first.state === undefined ? undefined : await freshState(ctx, first, tool);
  const bad = await retry(ctx, first, tool.name, tool.arguments, {
    ...(first.state !== undefined && { state: unspent ?? first.state }),
    answers: { ...first.answers, [key]: malformed },
  });
  expectInvalidParams(ctx, 'mrtr.malformed_response', bad, `inputResponses.${key} = ${JSON.stringify(malformed)}`);
}
