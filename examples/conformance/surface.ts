/**
 * Prompts, resources and completion for the suite, registered on each fresh low-level server
 * through `createServerFactory({ extend })`. The one multi-round prompt runs on the same MRTR
 * machinery as the tools. 2025-11-25 sessions also get resource subscriptions (`registerLegacySurface`).
 */
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type Server,
} from '@modelcontextprotocol/server';

import { askForInput, openRound, readElicitResult, toolContextOf } from '../../src/entries/server.js';
import type { RoundOptions } from '../../src/entries/server.js';
import { redPixelPng } from './media.js';

const PNG = redPixelPng();
const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;
const user = (content: unknown) => ({ role: 'user' as const, content: content as never });
const say = (text: string) => user({ type: 'text', text });

const PROMPTS = [
  { name: 'test_simple_prompt', description: 'A prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  { name: 'test_input_required_result_prompt', description: 'A prompt that needs input from the user first' },
];

const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
  { uri: 'test://static-binary', name: 'static-binary', description: 'A static PNG image', mimeType: 'image/png' },
];

function staticPrompt(name: string, args: Record<string, string>): GetPromptResult {
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [say('This is a simple prompt for testing.')] };
    case 'test_prompt_with_arguments':
      return { messages: [say(`Prompt with arguments: arg1='${args['arg1']}', arg2='${args['arg2']}'`)] };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          user({
            type: 'resource',
            resource: {
              uri: args['resourceUri'],
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          }),
          say('Please process the embedded resource above.'),
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [user({ type: 'image', data: PNG, mimeType: 'image/png' }), say('Please analyze the image above.')],
      };
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  }
}

export function registerSurface(server: Server, principal: string, rounds: RoundOptions): void {
  server.setRequestHandler('prompts/list', () => ({ prompts: structuredClone(PROMPTS) }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    if (name !== 'test_input_required_result_prompt') return staticPrompt(name, args);
    const context = toolContextOf(ctx, principal);
    const target = { method: 'prompts/get' as const, name, args };
    const opened = openRound<Record<string, never>>(context, target, rounds, () => ({}));
    const raw = opened.responses['user_context'];
    if (raw !== undefined) {
      const answer = readElicitResult('user_context', raw);
      const given = answer.action === 'accept' ? String(answer.content?.['context'] ?? '') : answer.action;
      return { messages: [say(`Use this context: ${given}`)] };
    }
    const request_ = {
      user_context: inputRequired.elicit({
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      } as never),
    };
    const asked = askForInput(context, target, rounds, {}, opened.round, request_);
    if (asked.kind === 'too_large') throw new ProtocolError(ProtocolErrorCode.InternalError, asked.message);
    return asked.result;
  });

  server.setRequestHandler('resources/list', () => ({ resources: structuredClone(RESOURCES) }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for an id',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler('resources/read', (request) => {
    const { uri } = request.params;
    if (uri === 'test://static-text') {
      return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    }
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    const id = TEMPLATE.exec(uri)?.[1];
    if (id !== undefined) {
      const text = JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource not found', { uri });
  });

  server.setRequestHandler('completion/complete', (request) => {
    const value = request.params.argument.value;
    const candidates = ['paris', 'park', 'party', 'test', 'testing'].filter((word) => word.startsWith(value));
    return { completion: { values: candidates, total: candidates.length, hasMore: false } };
  });
}

/**
 * 2025-11-25 only: `resources/subscribe` and `resources/unsubscribe`, which revision 2026-07-28 removed
 * (the fixture does not serve their replacement, `subscriptions/listen`). The fixture's resources never
 * change, so a subscription can never be owed a `notifications/resources/updated` and there is nothing to
 * remember per session; both are acknowledged for any URI (the spec leaves its interpretation to the server).
 */
export function registerLegacySurface(server: Server): void {
  server.setRequestHandler('resources/subscribe', () => ({}));
  server.setRequestHandler('resources/unsubscribe', () => ({}));
}
