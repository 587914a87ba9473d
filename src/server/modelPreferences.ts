/**
 * Whether the sampling requests a server sends to the host carry `modelPreferences` (`serve --model-preferences
 * send|omit`). Some hosts fail every request that carries them (fast-agent 0.10.x with an OpenAI-compatible model
 * passes them to its client as an unknown argument: docs/model-sources.md, "Known host issues"). `omit` takes them
 * off the embedded `sampling/createMessage` requests of an `input_required` result — the MRTR round on 2026-07-28,
 * and so the live request the legacy shim sends from it on 2025-11-25 — and nothing else: a server-owned provider
 * still reads them to choose its model.
 */
import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';

export type ModelPreferencesMode = 'send' | 'omit';
export const MODEL_PREFERENCES_MODES: readonly ModelPreferencesMode[] = ['send', 'omit'];

/** The result as it goes to the host under `mode`: unchanged with `send`. */
export function withModelPreferences<Result extends CallToolResult | InputRequiredResult>(
  result: Result,
  mode: ModelPreferencesMode,
): Result {
  if (mode === 'send' || !isInputRequiredResult(result) || result.inputRequests === undefined) return result;
  const inputRequests = Object.fromEntries(
    Object.entries(result.inputRequests).map(([key, request]) => {
      if (request.method !== 'sampling/createMessage' || request.params === undefined) return [key, request];
      const { modelPreferences: _omitted, ...params } = request.params as Record<string, unknown>;
      return [key, { ...request, params }];
    }),
  );
  return { ...result, inputRequests } as Result;
}
