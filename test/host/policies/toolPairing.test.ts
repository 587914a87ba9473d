/**
 * The tool loop's shape in requests (every tool_use answered by exactly one tool_result in the next
 * user message, which holds nothing else) and in the host model's answers (unique ids, only the tools
 * offered, none under toolChoice "none").
 */
import { describe, expect, it } from 'vitest';

import type { SamplingBlock } from '../../../src/host/policies/contentBlocks.js';
import { answerToolProblem, toolPairingProblem, type CheckedMessage } from '../../../src/host/policies/toolPairing.js';

const text = (value: string): SamplingBlock => ({ type: 'text', text: value });
const use = (id: string, name = 'read_file'): SamplingBlock => ({ type: 'tool_use', id, name, input: { path: 'a' } });
const result = (id: string): SamplingBlock => ({
  type: 'tool_result',
  toolUseId: id,
  content: [{ type: 'text', text: 'file text' }],
});
const user = (...content: SamplingBlock[]): CheckedMessage => ({ role: 'user', content });
const assistant = (...content: SamplingBlock[]): CheckedMessage => ({ role: 'assistant', content });

describe('toolPairingProblem', () => {
  it('accepts conversations without tools, and loops that pair every call, over several turns', () => {
    expect(toolPairingProblem([user(text('hi')), assistant(text('hello')), user(text('bye'))])).toBeUndefined();
    expect(
      toolPairingProblem([
        user(text('summarize')),
        assistant(text('looking'), use('a', 'list_directory'), use('b')),
        user(result('b'), result('a')),
        assistant(use('c')),
        { role: 'user', content: result('c') },
      ]),
    ).toBeUndefined();
  });

  it.each([
    [
      'a result missing',
      [user(text('go')), assistant(use('a'), use('b')), user(result('a'))],
      'messages[2] leaves tool use "b" of messages[1] without a result',
    ],
    [
      'a stray result',
      [user(text('go')), assistant(use('a')), user(result('a'), result('zz'))],
      'messages[2] answers tool use "zz", which messages[1] did not make',
    ],
    [
      'a result twice',
      [user(text('go')), assistant(use('a')), user(result('a'), result('a'))],
      'messages[2] answers tool use "a" twice',
    ],
    [
      'results mixed with text',
      [user(text('go')), assistant(use('a')), user(text('here you are'), result('a'))],
      'messages[2] mixes tool_result blocks with other content: a tool result message holds only tool results',
    ],
    [
      'results for uses two messages back',
      [user(text('go')), assistant(use('a')), user(result('a')), assistant(text('ok')), user(result('a'))],
      'messages[4] holds tool results, but messages[3] made no tool use',
    ],
    [
      'results that open the conversation',
      [user(result('a'))],
      'messages[0] holds tool results, but no tool use comes before it',
    ],
    [
      'uses followed by text',
      [user(text('go')), assistant(use('a')), user(text('never mind'))],
      'messages[2] must answer the tool uses of messages[1] with tool_result blocks',
    ],
    [
      'uses that end the conversation',
      [user(text('go')), assistant(use('a'))],
      'messages[1] ends the conversation with tool uses that no tool_result answers',
    ],
    [
      'an id used twice in one message',
      [user(text('go')), assistant(use('a'), use('a')), user(result('a'))],
      'messages[1] uses tool use id "a" twice',
    ],
    ['a tool_use from the user', [user(use('a'))], 'messages[0]: a tool_use block must be in an assistant message'],
    [
      'a tool_result from the assistant',
      [user(text('go')), assistant(result('a'))],
      'messages[1]: a tool_result block must be in a user message',
    ],
  ])('refuses %s', (_case, messages, problem) => {
    expect(toolPairingProblem(messages)).toBe(problem);
  });

  it('quotes ids cleaned and bounded', () => {
    const id = `\u001b[31m${'x'.repeat(500)}`;
    const problem = toolPairingProblem([user(text('go')), assistant(use('a')), user(result('a'), result(id))]);
    expect(problem).not.toContain('\u001b');
    expect(problem!.length).toBeLessThan(200);
  });
});

describe('answerToolProblem', () => {
  const offered = { names: ['list_directory', 'read_file'], mode: 'auto' as const };

  it('accepts text, and calls with unique ids to offered tools', () => {
    expect(answerToolProblem(text('done'), offered)).toBeUndefined();
    expect(answerToolProblem([text('reading'), use('a'), use('b', 'list_directory')], offered)).toBeUndefined();
    expect(answerToolProblem(text('done'), { ...offered, mode: 'none' })).toBeUndefined();
  });

  it.each([
    ['a repeated id', [use('a'), use('a')], offered, 'uses tool use id "a" twice'],
    ['a tool not offered', [use('a', 'shell')], offered, 'calls tool "shell", which the request did not offer'],
    [
      'a call under toolChoice none',
      [use('a')],
      { ...offered, mode: 'none' as const },
      'uses a tool, but the request said toolChoice "none"',
    ],
    ['a tool_result', [result('a')], offered, 'holds a tool_result block (only the server sends those)'],
  ])('refuses %s', (_case, content, tools, problem) => {
    expect(answerToolProblem(content, tools)).toBe(problem);
  });
});
