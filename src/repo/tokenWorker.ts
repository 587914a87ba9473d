/**
 * The tokenizer's own thread: loading `o200k_base` takes about a third of a second of CPU, which here runs beside
 * the main thread's start-up instead of blocking the first tool call. Started by tokens.ts; answers
 * {@link TokenRequest}s.
 */
import { parentPort } from 'node:worker_threads';
import * as encoder from 'gpt-tokenizer/encoding/o200k_base';
import { cutWith, type TokenReply, type TokenRequest } from './tokenCut.js';

parentPort?.on('message', (request: TokenRequest) => {
  let reply: TokenReply;
  try {
    reply =
      request.op === 'count'
        ? { id: request.id, count: encoder.countTokens(request.text) }
        : { id: request.id, cut: cutWith(encoder, request.text, request.limit) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
