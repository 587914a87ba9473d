import type { CreateMessageResult } from '@modelcontextprotocol/server';
import { answerPick, isPickPrompt } from './pick.js';
import { userText } from './prompt.js';
import { hasFileBlocks, parseFileBlocks } from './fileBlocks.js';
import { answerSummary, isSummaryPrompt } from './summary.js';
import { answerExplore, isExploreRequest } from './explorer.js';
import type { CompletionModel, ModelCompletionRequest } from '../../../models/modelSource.js';

/**
 * The built-in model: a deterministic, extractive heuristic, not a language model.
 *
 * It recognises the two summarize_repo prompts by their text (the request key is only a tie-breaker),
 * so it answers any server that builds those prompts:
 * - the file-picking prompt (`Pick at most N files …` / `Candidate files …`) gets a JSON array of
 *   paths chosen with the documented file score;
 * - the summary prompt (`Summarize the repository …` with `<<<FILE …>>>` blocks) gets an extractive
 *   Markdown summary that says it was written by this heuristic.
 * - an explore round (a request offering the explore tools) gets the deterministic explorer's next tool calls,
 *   then the same extractive summary of what it read (explorer.ts): it uses tools (`usesTools`).
 * Anything else gets a short text saying what it can do.
 */

export const BUILTIN_MODEL_NAME = 'mcp-model-input/builtin-heuristic';

export type BuiltinTask = 'pick' | 'summary' | 'unknown';

const UNSUPPORTED =
  `The built-in model (${BUILTIN_MODEL_NAME}) is a deterministic heuristic, not a language model; ` +
  'it handles only the summarize_repo prompts (picking files and summarizing them).';

/** Which prompt this is, judged on the text outside any embedded file contents. */
export function detectTask(text: string, key?: string): BuiltinTask {
  const { prompt } = parseFileBlocks(text);
  const pick = isPickPrompt(prompt);
  const summary = isSummaryPrompt(prompt) || hasFileBlocks(text);
  if (pick && summary) return key === 'pick_files' ? 'pick' : 'summary';
  return pick ? 'pick' : summary ? 'summary' : 'unknown';
}

function answer(request: ModelCompletionRequest): string {
  const text = userText(request.params);
  switch (detectTask(text, request.key)) {
    case 'pick':
      return answerPick(text);
    case 'summary':
      return answerSummary(text, request.params.maxTokens);
    case 'unknown':
      return UNSUPPORTED;
  }
}

export function createBuiltinModel(): CompletionModel {
  return {
    name: BUILTIN_MODEL_NAME,
    usesTools: true,
    async complete(request: ModelCompletionRequest): Promise<CreateMessageResult> {
      request.signal?.throwIfAborted();
      if (isExploreRequest(request.params)) return answerExplore(request.params, BUILTIN_MODEL_NAME);
      return {
        role: 'assistant',
        content: { type: 'text', text: answer(request) },
        model: BUILTIN_MODEL_NAME,
        stopReason: 'endTurn',
      };
    },
  };
}
