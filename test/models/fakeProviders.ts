/**
 * Local stand-ins for the providers: a node:http server on 127.0.0.1 (port 0) that speaks the real
 * wire format — Chat Completions (`POST /v1/chat/completions`) or the Messages API
 * (`POST /v1/messages`) — and answers from a queue of scripted replies, then from a default
 * responder. By default it answers like the built-in model would, so whole summarize_repo runs work.
 * Like the real Messages API, the Anthropic one answers 400 to empty text turns.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, expect } from 'vitest';

import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import { ModelProviderError } from '../../src/models/providerError.js';

export type ProviderKind = 'openai' | 'anthropic';

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value, or a raw string sent as is (for malformed bodies). */
  body?: unknown;
  /** Never answer (until the server closes): for timeouts. */
  hang?: boolean;
  /** Send the status line, headers and the start of a body, then stall: for timeouts past the headers. */
  stallBody?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** Bytes of the body as received. */
  bytes: number;
}

export interface FakeProvider {
  /** The base URL to configure: `…/v1` for openai, the origin for anthropic. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replies used in order, before the default responder. */
  enqueue(...replies: FakeReply[]): void;
  /** Forgets the recorded requests and the replies not used yet (between tests). */
  reset(): void;
  close(): Promise<void>;
}

export interface TextAnswer {
  text: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  stop?: string;
}

export function chatCompletion(answer: TextAnswer, extra: { refusal?: string } = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: answer.model ?? 'fake-gpt',
    choices: [
      {
        index: 0,
        finish_reason: answer.stop ?? 'stop',
        logprobs: null,
        message: { role: 'assistant', content: answer.text, refusal: extra.refusal ?? null },
      },
    ],
    usage: {
      prompt_tokens: answer.inputTokens ?? 100,
      completion_tokens: answer.outputTokens ?? 10,
      total_tokens: (answer.inputTokens ?? 100) + (answer.outputTokens ?? 10),
    },
  };
}

export function anthropicMessage(answer: TextAnswer): Record<string, unknown> {
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: answer.model ?? 'fake-claude',
    content: answer.text === '' ? [] : [{ type: 'text', text: answer.text }],
    stop_reason: answer.stop ?? 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: answer.inputTokens ?? 100, output_tokens: answer.outputTokens ?? 10 },
  };
}

export function errorBody(kind: ProviderKind, status: number, message: string): Record<string, unknown> {
  return kind === 'openai'
    ? { error: { message, type: 'invalid_request_error', param: null, code: String(status) } }
    : { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message } };
}

/** The text of the request's user turns, whichever wire format it came in. */
function promptOf(body: any): { system?: string; user: string } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((block: any) => (typeof block?.text === 'string' ? block.text : '')).join('\n')
        : '';
  const system = typeof body?.system === 'string' ? body.system : messages.find((m) => m.role === 'system')?.content;
  // The first user turn is the flow's prompt; later turns are repair requests.
  const user = text(messages.find((m) => m.role === 'user')?.content);
  return { ...(typeof system === 'string' && { system }), user };
}

/** Answers like the built-in model, in the provider's wire format, echoing the requested model. */
export async function builtinReply(kind: ProviderKind, body: any): Promise<FakeReply> {
  const { system, user } = promptOf(body);
  const answer = await createBuiltinModel().complete({
    key: '',
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: user } }],
      ...(system !== undefined && { systemPrompt: system }),
      maxTokens: typeof body?.max_tokens === 'number' ? body.max_tokens : 1200,
    },
  });
  const text = (answer.content as { text: string }).text;
  const reply = { text, model: String(body?.model ?? 'fake'), inputTokens: 120, outputTokens: 30 };
  return { body: kind === 'openai' ? chatCompletion(reply) : anthropicMessage(reply) };
}

/**
 * What the real Messages API answers 400 to, and some code paths could send: a turn with no content,
 * or a text block that is empty or only whitespace. Undefined when the request is fine.
 */
export function emptyTextError(body: any): string | undefined {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    const blocks: any[] =
      typeof message?.content === 'string' ? [{ type: 'text', text: message.content }] : (message?.content ?? []);
    if (!Array.isArray(blocks) || blocks.length === 0) {
      return `messages.${index}: all messages must have non-empty content`;
    }
    for (const block of blocks) {
      if (block?.type === 'text' && (typeof block.text !== 'string' || block.text.trim() === '')) {
        return `messages.${index}: text content blocks must contain non-whitespace text`;
      }
    }
  }
  return undefined;
}

function send(res: ServerResponse, reply: FakeReply): void {
  const raw = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  res.end(raw);
}

export async function startFakeProvider(
  kind: ProviderKind,
  respond: (body: any) => FakeReply | Promise<FakeReply> = (body) => builtinReply(kind, body),
): Promise<FakeProvider> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const expectedPath = kind === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, bytes: raw.length });
        if (req.method !== 'POST' || req.url !== expectedPath) {
          send(res, { status: 404, body: errorBody(kind, 404, `no route ${req.url}`) });
          return;
        }
        const invalid = kind === 'anthropic' ? emptyTextError(body) : undefined;
        if (invalid !== undefined) {
          send(res, {
            status: 400,
            body: { type: 'error', error: { type: 'invalid_request_error', message: invalid } },
          });
          return;
        }
        const reply = queue.shift() ?? (await respond(body));
        if (reply.hang === true) return;
        if (reply.stallBody === true) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id": "stalled", ');
          return;
        }
        send(res, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: kind === 'openai' ? `${origin}/v1` : origin,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Retry policy for tests: the delays asked for are recorded, never waited (`onSleep` may advance a fake clock). */
export function instantRetry(
  maxRetries = 2,
  onSleep?: (ms: number) => void,
): {
  policy: {
    maxRetries: number;
    baseDelayMs: number;
    maxDelayMs: number;
    maxRetryAfterMs: number;
    sleep: (ms: number) => Promise<void>;
  };
  delays: number[];
} {
  const delays: number[] = [];
  return {
    delays,
    policy: {
      maxRetries,
      baseDelayMs: 5,
      maxDelayMs: 20,
      maxRetryAfterMs: 30_000,
      sleep: async (ms: number) => {
        delays.push(ms);
        onSleep?.(ms);
      },
    },
  };
}

/**
 * A fake provider for the enclosing `describe` (or the file): started before its tests, its recorded requests
 * cleared after each test, closed after all. The returned object reads through to it, so it can be used like the
 * provider itself from inside tests and later hooks.
 */
export function fakeProviderForSuite(
  kind: ProviderKind,
  respond?: (body: any) => FakeReply | Promise<FakeReply>,
): FakeProvider {
  let current: FakeProvider | undefined;
  const started = (): FakeProvider => {
    if (current === undefined) throw new Error('the fake provider is used before its suite started it');
    return current;
  };
  beforeAll(async () => {
    current = await startFakeProvider(kind, respond);
  });
  afterAll(async () => {
    await current?.close();
  });
  // A test's unused replies never reach the next test (its order must not matter).
  afterEach(() => current?.reset());
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get requests() {
      return started().requests;
    },
    enqueue: (...replies) => started().enqueue(...replies),
    reset: () => started().reset(),
    close: () => started().close(),
  };
}

/** The `ModelProviderError` a call fails with; the test fails if it succeeds or throws anything else. */
export async function providerFailure(promise: Promise<unknown>): Promise<ModelProviderError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  return error as ModelProviderError;
}
