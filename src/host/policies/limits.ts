/**
 * The per-request limits: how large one embedded request, and the host model's answer to it, may
 * be. A request past any of them is refused (`request_invalid`) before a model or a person sees it;
 * an answer past `maxResponseBytes` is not sent back (`response_invalid`).
 */

export interface RequestLimits {
  /** The largest `maxTokens` a sampling request may ask for. */
  maxTokens: number;
  /** UTF-8 bytes of the JSON of `messages` plus `systemPrompt` (and of elicitation params). */
  maxMessageBytes: number;
  /** UTF-8 bytes of `systemPrompt`. */
  maxSystemPromptBytes: number;
  /** Messages in one sampling request. */
  maxMessages: number;
  /** UTF-8 bytes of the JSON of one answer sent back. */
  maxResponseBytes: number;
  /** UTF-8 bytes of a server's `requestState` the host carries to the retry. */
  maxRequestStateBytes: number;
}

export const DEFAULT_REQUEST_LIMITS: Readonly<RequestLimits> = Object.freeze({
  maxTokens: 4096,
  maxMessageBytes: 256 * 1024,
  maxSystemPromptBytes: 16 * 1024,
  maxMessages: 64,
  maxResponseBytes: 128 * 1024,
  maxRequestStateBytes: 256 * 1024,
});

/** UTF-8 bytes of an elicitation's `message`: what a dialog can show. Not configurable. */
export const MAX_ELICITATION_MESSAGE_BYTES = 4 * 1024;
