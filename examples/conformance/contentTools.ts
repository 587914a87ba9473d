/** The suite's plain tools: content types, errors, progress. Plain `defineTool` tools on our registry. */
import { setTimeout as sleep } from 'node:timers/promises';

import { z } from 'zod';

import { defineTool } from '../../src/entries/server.js';
import type { AnyToolDefinition } from '../../src/entries/server.js';
import { redPixelPng, silenceWav } from './media.js';

const noArgs = z.object({});
const PNG = redPixelPng();
const WAV = silenceWav();
const embedded = {
  type: 'resource' as const,
  resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
};

function simple(name: string, description: string, content: unknown[], isError = false): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description,
    inputSchema: noArgs,
    run: async () => ({ content: content as never, ...(isError && { isError: true }) }),
  });
}

export function contentTools(): AnyToolDefinition[] {
  return [
    simple('test_simple_text', 'Returns simple text', [
      { type: 'text', text: 'This is a simple text response for testing.' },
    ]),
    simple('test_image_content', 'Returns an image', [{ type: 'image', data: PNG, mimeType: 'image/png' }]),
    simple('test_audio_content', 'Returns audio', [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }]),
    simple('test_embedded_resource', 'Returns an embedded resource', [embedded]),
    simple('test_multiple_content_types', 'Returns text, image and resource', [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      embedded,
    ]),
    simple(
      'test_error_handling',
      'Always fails as a tool error',
      [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
      true,
    ),
    simple('test_logging_tool', 'Logs nothing unless a log level was requested', [
      { type: 'text', text: 'Logging tool completed' },
    ]),
    defineTool({
      name: 'test_tool_with_logging',
      title: 'test_tool_with_logging',
      description: 'Sends three info log messages while it runs',
      inputSchema: noArgs,
      run: async (_args, ctx) => {
        for (const [index, message] of [
          'Tool execution started',
          'Tool processing data',
          'Tool execution completed',
        ].entries()) {
          await ctx.log('info', message);
          if (index < 2) await sleep(50, undefined, { signal: ctx.signal });
        }
        return { content: [{ type: 'text', text: 'Logging tool completed' }] };
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      title: 'test_tool_with_progress',
      description: 'Reports progress 0, 50, 100 of 100',
      inputSchema: noArgs,
      run: async (_args, ctx) => {
        for (const step of [0, 50, 100]) {
          await ctx.progress(step, 100);
          if (step < 100) await sleep(50, undefined, { signal: ctx.signal });
        }
        return { content: [{ type: 'text', text: 'Progress tool completed' }] };
      },
    }),
  ];
}
