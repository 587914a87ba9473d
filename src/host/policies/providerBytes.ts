/**
 * What a sampling request costs in bytes: the request body the chosen model's provider will receive
 * (messages, system prompt, tools with their descriptions and schemas, tool results), measured on
 * its serialization — not just the messages. A model that cannot say (the built-in model, scripted
 * answers) is measured on the JSON of the validated params it is handed, which carries all of these.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';

import type { CompletionModel } from '../../models/modelSource.js';
import { jsonBytes } from './refusal.js';

/** UTF-8 bytes of the request `model` will send for `params`. */
export async function providerRequestBytes(
  model: CompletionModel,
  params: CreateMessageRequestParams,
): Promise<number> {
  const own = jsonBytes(params);
  if (own === undefined) throw new TypeError('sampling params are not JSON');
  if (model.requestBytes === undefined) return own;
  try {
    return await model.requestBytes(params);
  } catch {
    // An adapter that cannot build the body now will fail the call itself; the params' size stands in.
    return own;
  }
}
