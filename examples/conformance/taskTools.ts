/**
 * The tools the suite's tasks scenarios (SEP-2663, `tasks-*`) call: plain `defineTool` tools with a `task` support
 * level, run by the project's task service like any tool of `serve --tasks on`.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { defineTool } from '../../src/entries/server.js';
import type { AnyToolDefinition, RoundOptions } from '../../src/entries/server.js';
import { elicit, stagedTool } from './inputTools.js';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
/** The longest `slow_compute` sleep the fixture honours: the suite asks for 60 s only to cancel it. */
const MAX_SECONDS = 120;

export function taskTools(options: RoundOptions): AnyToolDefinition[] {
  return [
    defineTool({
      name: 'greet',
      title: 'greet',
      description: 'Conformance fixture (tasks): sync only, greets by name',
      inputSchema: z.object({ name: z.string() }),
      run: async ({ name }) => text(`Hello, ${name}!`),
    }),
    defineTool({
      name: 'slow_compute',
      title: 'slow_compute',
      description: 'Conformance fixture (tasks): sleeps `seconds`, then answers; cancellable while it sleeps',
      inputSchema: z.object({ seconds: z.number().min(0).max(MAX_SECONDS), label: z.string().optional() }),
      task: 'optional',
      run: async ({ seconds, label }, ctx) => {
        // An aborted sleep rejects: the task service then settles the task as cancelled.
        if (seconds > 0) await sleep(seconds * 1000, undefined, { signal: ctx.signal });
        return text(`computed ${label ?? 'result'} after ${seconds}s`);
      },
    }),
    defineTool({
      name: 'failing_job',
      title: 'failing_job',
      description: 'Conformance fixture (tasks): runs only as a task; ends with a tool error after about a second',
      inputSchema: z.object({}),
      task: 'always',
      run: async (_args, ctx) => {
        await sleep(1000, undefined, { signal: ctx.signal });
        return { ...text('failing_job failed, as it always does'), isError: true };
      },
    }),
    defineTool({
      name: 'protocol_error_job',
      title: 'protocol_error_job',
      description: 'Conformance fixture (tasks): fails with a JSON-RPC error (the task ends failed)',
      inputSchema: z.object({}),
      task: 'optional',
      run: async () => {
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'protocol_error_job: a protocol-level failure');
      },
    }),
    {
      // MRTR, then a task (SEP-2663): the name is asked over an input_required round; the retry becomes a task.
      ...stagedTool(
        'test_tool_with_task',
        options,
        [{ requests: () => ({ user_name: elicit('Your name?', 'name') }) }],
        (a) => text(`Hello, ${a['user_name']}: your task is done.`),
      ),
      task: 'always',
      taskAfterInput: true,
    },
    {
      ...stagedTool(
        'confirm_delete',
        options,
        [{ requests: () => ({ confirm: elicit('Delete it?', 'ok', 'boolean') }) }],
        (a) => text(`delete confirmed: ${a['confirm']}`),
      ),
      task: 'optional',
    },
    {
      ...stagedTool(
        'multi_input',
        options,
        [{ requests: () => ({ first: elicit('First value?', 'value'), second: elicit('Second value?', 'value') }) }],
        (a) => text(`got ${a['first']} and ${a['second']}`),
      ),
      task: 'optional',
    },
  ];
}
